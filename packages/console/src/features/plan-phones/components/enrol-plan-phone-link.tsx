/**
 * "Enrol a phone" on the anti-theft and family-care screens: opens the screen's enrolment form (`?enrol=1`), where a
 * phone is sold the plan alone, without a loan (decision 023).
 */
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

export function EnrolPlanPhoneLink() {
  const { t } = useTranslation();
  return (
    <Link className="button button--primary button--block" to="?enrol=1">
      {t('planPhone.enrolButton')}
    </Link>
  );
}
