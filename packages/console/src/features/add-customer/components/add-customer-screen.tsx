/**
 * Add customer: a guided form in four steps (customer, device, loan with the live schedule, photo and
 * signatures). Submitting creates the customer (standard or financier flow), then uploads the photo and
 * signature(s), then opens the new customer's details.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { todayInIndia } from '@kisht/domain/format';
import { Page } from '../../../shared/ui/page.tsx';
import { toastKey, toastServerSuccess } from '../../../shared/ui/toast-store.ts';
import { isApiFailure, type ApiFailure } from '../../../shared/api/api-failure.ts';
import { selectFeatures } from '../../../shared/config/config-api.ts';
import { useUploadDocumentMutation, type DocumentType } from '../../../shared/documents/documents-api.ts';
import { useAppSelector } from '../../../shared/state/hooks.ts';
import { customerPath } from '../../../shared/routes.ts';
import { useGetFinanciersQuery, useGetLoanProductsQuery } from '../../../shared/catalogue/catalogue-api.ts';
import { useCreateCustomerMutation, useCreateFinancedCustomerMutation } from '../api/enrol-api.ts';
import {
  buildEnrolRequest,
  emptyDraft,
  fieldErrorsFromServer,
  firstStepWithError,
  previewLoan,
  STEPS,
  validateCustomerStep,
  validateDeviceStep,
  validateImagesStep,
  validateLoanStep,
  type EnrolDraft,
  type FieldErrors,
  type FormField,
  type Step,
} from '../../../shared/customers/customer-form.ts';
import { CustomerStep } from './customer-step.tsx';
import { DeviceStep } from './device-step.tsx';
import { LoanStep } from './loan-step.tsx';
import { ImagesStep, type EnrolImages } from './images-step.tsx';
import './add-customer.css';

const STEP_LABEL_KEYS: Record<Step, string> = {
  customer: 'addCustomer.steps.customer',
  device: 'addCustomer.steps.device',
  loan: 'addCustomer.steps.loan',
  documents: 'addCustomer.steps.documents',
};

type Progress = null | 'creating' | 'uploading';

export function AddCustomerScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const today = useMemo(() => todayInIndia(), []);
  const features = useAppSelector(selectFeatures);
  const { data: financiers = [] } = useGetFinanciersQuery();
  const { data: loanProducts = [] } = useGetLoanProductsQuery();
  const [createCustomer] = useCreateCustomerMutation();
  const [createFinancedCustomer] = useCreateFinancedCustomerMutation();
  const [uploadDocument] = useUploadDocumentMutation();

  const [draft, setDraft] = useState<EnrolDraft>(() => emptyDraft(today));
  const [images, setImages] = useState<EnrolImages>({ photo: null, signature: null, witnessSignature: null });
  const [step, setStep] = useState<Step>('customer');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [unplaced, setUnplaced] = useState<string[]>([]);
  const [progress, setProgress] = useState<Progress>(null);
  // Once the customer exists, a retry only repeats the uploads.
  const [createdId, setCreatedId] = useState<number | null>(null);
  // The server's "enrolled" message, shown once the uploads are done too.
  const [createdMessage, setCreatedMessage] = useState<string | null>(null);
  const focusError = useRef(false);
  const heading = useRef<HTMLHeadingElement>(null);

  const financier = financiers.find((f) => String(f.id) === draft.financierId) ?? null;
  const stepIndex = STEPS.indexOf(step);
  const loanProduct = loanProducts.find((p) => String(p.id) === draft.loanProductId) ?? null;
  const preview = useMemo(() => previewLoan(draft, today, loanProduct), [draft, today, loanProduct]);

  useEffect(() => {
    if (!focusError.current) return;
    focusError.current = false;
    document.querySelector<HTMLElement>('.form-step [aria-invalid="true"]')?.focus();
  }, [errors]);

  function errorOf(field: FormField): string | null {
    const error = errors[field];
    if (!error) return null;
    return 'text' in error ? error.text : t(error.key, error.vars);
  }

  function update(patch: Partial<EnrolDraft>) {
    setDraft((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch)) delete next[key as FormField];
      if (patch.financierReference) for (const key of Object.keys(next)) if (key.startsWith('financier_reference.')) delete next[key as FormField];
      return next;
    });
  }

  function updateImages(patch: Partial<EnrolImages>) {
    setImages((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch)) delete next[key as FormField];
      return next;
    });
  }

  function goTo(next: Step) {
    setStep(next);
    window.scrollTo(0, 0);
    heading.current?.focus();
  }

  function checkStep(which: Step): FieldErrors {
    if (which === 'customer') return validateCustomerStep(draft, today);
    if (which === 'device') return validateDeviceStep(draft);
    if (which === 'loan') return validateLoanStep(draft, today, financier, loanProduct);
    return validateImagesStep(
      { photo: Boolean(images.photo), signature: Boolean(images.signature), witnessSignature: Boolean(images.witnessSignature) },
      features.witness_signature,
    );
  }

  function showErrors(found: FieldErrors) {
    focusError.current = true;
    setErrors(found);
  }

  function next() {
    const found = checkStep(step);
    if (Object.keys(found).length > 0) return showErrors(found);
    setErrors({});
    goTo(STEPS[stepIndex + 1]!);
  }

  function placeServerFailure(failure: ApiFailure) {
    let found: FieldErrors = {};
    let rest: string[] = [];
    if (failure.code === 'VALIDATION_FAILED' && failure.details) {
      ({ errors: found, unplaced: rest } = fieldErrorsFromServer(failure.details));
    } else if (failure.code === 'IMEI_IN_USE') {
      found = { imei1: { key: 'errors.IMEI_IN_USE' } };
    } else if (failure.code === 'NO_LICENSE_KEY') {
      found = { productId: { key: 'errors.NO_LICENSE_KEY' } };
    }
    setUnplaced(rest);
    const target = firstStepWithError(found);
    if (target && target !== step) goTo(target);
    showErrors(found);
  }

  async function upload(customerId: number): Promise<boolean> {
    const jobs: { documentType: DocumentType; file: Blob; fileName: string }[] = [];
    if (images.photo) jobs.push({ documentType: 'photo', file: images.photo.blob, fileName: images.photo.fileName });
    if (images.signature) jobs.push({ documentType: 'signature', file: images.signature, fileName: 'signature.png' });
    if (features.witness_signature && images.witnessSignature) {
      jobs.push({ documentType: 'witness_signature', file: images.witnessSignature, fileName: 'witness-signature.png' });
    }
    let ok = true;
    for (const job of jobs) {
      try {
        await uploadDocument({ customerId, ...job }).unwrap();
      } catch {
        ok = false;
      }
    }
    return ok;
  }

  async function submit() {
    // Every step again: a field may have been changed after its step was passed.
    for (const which of STEPS) {
      const found = checkStep(which);
      if (Object.keys(found).length > 0) {
        if (which !== step) goTo(which);
        return showErrors(found);
      }
    }
    setErrors({});
    setUnplaced([]);
    let customerId = createdId;
    let message = createdMessage;
    if (customerId === null) {
      setProgress('creating');
      try {
        const request = buildEnrolRequest(draft, today, financier, loanProduct);
        const created =
          request.endpoint === 'financed' ? await createFinancedCustomer(request.body).unwrap() : await createCustomer(request.body).unwrap();
        customerId = created.customer.id;
        message = created.serverMessage;
        setCreatedId(customerId);
        setCreatedMessage(message);
      } catch (error) {
        setProgress(null);
        if (isApiFailure(error)) placeServerFailure(error);
        return;
      }
    }
    setProgress('uploading');
    const uploaded = await upload(customerId);
    setProgress(null);
    if (!uploaded) {
      toastKey('warning', 'addCustomer.toast.uploadFailed');
      await navigate(customerPath('customer_documents', customerId), { replace: true });
      return;
    }
    toastServerSuccess(message, 'addCustomer.toast.enrolled');
    await navigate(customerPath('customer_details', customerId), { replace: true });
  }

  return (
    <Page title={t('addCustomer.title')}>
      <ol className="stepper" aria-label={t('addCustomer.progress')}>
        {STEPS.map((s, i) => (
          <li key={s} className={`stepper__item${i < stepIndex ? ' is-done' : ''}`} aria-current={s === step ? 'step' : undefined}>
            <span className="stepper__number">{i + 1}</span>
            <span className="stepper__label">{t(STEP_LABEL_KEYS[s])}</span>
          </li>
        ))}
      </ol>
      <h2 ref={heading} tabIndex={-1} className="step-heading">
        {t('addCustomer.stepOf', { number: stepIndex + 1, count: STEPS.length, name: t(STEP_LABEL_KEYS[step]) })}
      </h2>
      {unplaced.length > 0 ? (
        <div className="card form-alert" role="alert">
          <p>{t('errors.VALIDATION_FAILED')}</p>
          <ul>
            {unplaced.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (step === 'documents') void submit();
          else next();
        }}
      >
        {step === 'customer' ? <CustomerStep draft={draft} update={update} errorOf={errorOf} /> : null}
        {step === 'device' ? <DeviceStep draft={draft} update={update} errorOf={errorOf} /> : null}
        {step === 'loan' ? <LoanStep draft={draft} update={update} errorOf={errorOf} today={today} financiers={financiers} loanProducts={loanProducts} /> : null}
        {step === 'documents' ? (
          <ImagesStep
            draft={draft}
            images={images}
            onImages={updateImages}
            withWitness={features.witness_signature}
            emiPaise={preview.kind === 'ok' ? preview.schedule.emiPaise : null}
            errorOf={errorOf}
          />
        ) : null}
        <p className="muted small" aria-live="polite">
          {progress === 'creating' ? t('addCustomer.progressCreating') : progress === 'uploading' ? t('addCustomer.progressUploading') : ''}
        </p>
        <div className="form-nav">
          {stepIndex > 0 ? (
            <button type="button" className="button button--secondary" disabled={progress !== null} onClick={() => goTo(STEPS[stepIndex - 1]!)}>
              {t('common.previous')}
            </button>
          ) : (
            <span />
          )}
          <button type="submit" className="button button--primary" disabled={progress !== null}>
            {step === 'documents' ? (createdId === null ? t('addCustomer.submit') : t('addCustomer.retryUploads')) : t('common.next')}
          </button>
        </div>
      </form>
    </Page>
  );
}
