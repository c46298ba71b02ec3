/** /api/emi/*: instalments, payments and receipts, upcoming dues, outstanding totals. */
import { Type } from 'typebox';
import type { App } from '../../shared/types.ts';
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import { AddInstalmentBody, Alert, AlertBody, CustomerIdBody, CustomerIdQuery, EditInstalmentBody, EmiDetails, ForecloseBody, ForeclosureQuote, InstalmentChange, Outstanding, PayManyBody, PayOneBody, PaymentItem, PenaltyBody, Receipt, ReverseBody, Statement, UpcomingCounts, UpcomingList, UpcomingQuery, WaiveBody } from '@kisht/contract/emi';
import { ok } from '../../shared/reply.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import type { EmiService } from './emi.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply, 511: ErrorReply };
const tags = ['emi'];
const security = [{ bearer: [] }];

export async function emiRoutes(app: App, opts: { emi: EmiService }) {
  const { emi } = opts;

  app.get('/api/emi/customer_emi_details', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: "A customer's instalments with what is paid, owed and overdue", querystring: CustomerIdQuery, response: { 200: Ok(EmiDetails), ...errors } },
  }, async (request) => ok(request, await emi.details(authOf(request), request.query.customer_id)));

  app.post('/api/country/get_emi_details', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: 'The same EMI details, asked with a body', body: CustomerIdBody, response: { 200: Ok(EmiDetails), ...errors } },
  }, async (request) => ok(request, await emi.details(authOf(request), request.body.customer_id)));

  app.post('/api/emi/update_emi_status', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'emi.pay' },
    schema: { tags, security, summary: 'Pay one instalment (in full by default, or part of it)', body: PayOneBody, response: { 200: Ok(Receipt), ...errors } },
  }, async (request) => ok(request, await emi.payOne(authOf(request), request.body), 'PAYMENT_RECORDED'));

  app.post('/api/emi/multiple_emi_paid', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'emi.pay' },
    schema: { tags, security, summary: 'Pay several instalments at once, or an amount allocated oldest due first', body: PayManyBody, response: { 200: Ok(Receipt), ...errors } },
  }, async (request) => ok(request, await emi.payMany(authOf(request), request.body), 'PAYMENT_RECORDED'));

  app.post('/api/emi/reverse_payment', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'emi.reverse' },
    schema: { tags, security, summary: 'Correct a payment with a reversal entry (the ledger is never edited)', body: ReverseBody, response: { 200: Ok(Receipt), ...errors } },
  }, async (request) => ok(request, await emi.reverse(authOf(request), request.body), 'PAYMENT_REVERSED'));

  app.get('/api/emi/receipt', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: 'The receipt of a payment or reversal', querystring: Type.Object({ payment_id: Type.Integer({ minimum: 1 }) }), response: { 200: Ok(Receipt), ...errors } },
  }, async (request) => ok(request, await emi.receipt(authOf(request), request.query.payment_id)));

  app.get('/api/emi/payments', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: "A customer's payments and reversals, newest first", querystring: CustomerIdQuery, response: { 200: Ok(Type.Array(PaymentItem)), ...errors } },
  }, async (request) => ok(request, await emi.payments(authOf(request), request.query.customer_id)));

  app.get('/api/emi/getUpcomingEmi', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: 'Instalments overdue, due today or due in the next days', querystring: UpcomingQuery, response: { 200: Ok(UpcomingList), ...errors } },
  }, async (request) => ok(request, await emi.upcoming(authOf(request), request.query)));

  app.get('/api/emi/upcoming_emi_counts', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: 'How many instalments are overdue, due today and due in the next days', querystring: Type.Object({ days: Type.Integer({ minimum: 1, maximum: 90, default: 7 }) }), response: { 200: Ok(UpcomingCounts), ...errors } },
  }, async (request) => ok(request, await emi.upcomingCounts(authOf(request), request.query.days)));

  app.post('/api/emi/send_penalty', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'emi.penalty' },
    schema: { tags, security, summary: 'Add a penalty to an instalment (recorded, never edited)', body: PenaltyBody, response: { 200: Ok(EmiDetails), ...errors } },
  }, async (request) => ok(request, await emi.addPenalty(authOf(request), request.body), 'PENALTY_ADDED'));

  app.post('/api/emi/waive_penalty', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'emi.waive_penalty' },
    schema: { tags, security, summary: "Waive part or all of an instalment's unpaid penalty, with a reason (the penalty_waiver switch)", body: WaiveBody, response: { 200: Ok(EmiDetails), ...errors } },
  }, async (request) => ok(request, await emi.waivePenalty(authOf(request), request.body), 'PENALTY_WAIVED'));

  app.get('/api/emi/statement', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: "A loan's statement: every due, charge, waiver, payment, reversal and change, with the balance after each", querystring: CustomerIdQuery, response: { 200: Ok(Statement), ...errors } },
  }, async (request) => ok(request, await emi.statement(authOf(request), request.query.customer_id)));

  app.get('/api/emi/instalment_changes', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: "Changes to a loan's schedule (who, when, before, after, why), newest first", querystring: CustomerIdQuery, response: { 200: Ok(Type.Array(InstalmentChange)), ...errors } },
  }, async (request) => ok(request, await emi.changes(authOf(request), request.query.customer_id)));

  app.get('/api/emi/foreclosure_quote', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: 'The amount that closes a loan today, by its loan product', querystring: CustomerIdQuery, response: { 200: Ok(ForeclosureQuote), ...errors } },
  }, async (request) => ok(request, await emi.foreclosureQuote(authOf(request), request.query.customer_id)));

  app.post('/api/emi/foreclose', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'emi.foreclose' },
    schema: { tags, security, summary: "Close a loan early for today's quote (sent as shown; a changed quote is refused)", body: ForecloseBody, response: { 200: Ok(Receipt), ...errors } },
  }, async (request) => ok(request, await emi.foreclose(authOf(request), request.body), 'LOAN_CLOSED'));

  app.post('/api/emi/update_emi_details', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'emi.edit_instalment' },
    schema: { tags, security, summary: "Move an unpaid instalment's due date or change its amount", body: EditInstalmentBody, response: { 200: Ok(EmiDetails), ...errors } },
  }, async (request) => ok(request, await emi.editInstalment(authOf(request), request.body), 'EMI_UPDATED'));

  app.post('/api/emi/add_emi_details', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'emi.add_instalment' },
    schema: { tags, security, summary: 'Add an instalment at the end of the schedule', body: AddInstalmentBody, response: { 200: Ok(EmiDetails), ...errors } },
  }, async (request) => ok(request, await emi.addInstalment(authOf(request), request.body), 'EMI_UPDATED'));

  app.post('/api/emi/send_emialert', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'emi.alert' },
    schema: { tags, security, summary: "Queue an EMI alert for the customer's phone (delivered by the device channel)", body: AlertBody, response: { 200: Ok(Alert), ...errors } },
  }, async (request) => ok(request, await emi.sendAlert(authOf(request), request.body), 'ALERT_QUEUED'));

  app.get('/api/emi/emi_alerts', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: "The customer's EMI alerts and their delivery state", querystring: CustomerIdQuery, response: { 200: Ok(Type.Array(Alert)), ...errors } },
  }, async (request) => ok(request, await emi.alerts(authOf(request), request.query.customer_id)));

  app.get('/api/emi/getTotalOutStanding', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: 'What your network is owed (only where the organisation switched it on)', response: { 200: Ok(Outstanding), ...errors } },
  }, async (request) => ok(request, await emi.totalOutstanding(authOf(request))));
}
