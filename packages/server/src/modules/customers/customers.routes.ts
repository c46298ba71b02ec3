/** Customer enrolment (standard and financier flows), the customer list and the customer profile. */
import { Type } from 'typebox';
import type { App } from '../../shared/types.ts';
import { ErrorReply, Ok } from '@kisht/contract/envelope';
import { CreateCustomerBody, CreateFinancedCustomerBody, CreatePlanPhoneBody, CustomerCreated, CustomerList, CustomerListQuery, CustomerProfile, UpdateCustomerDetailsBody, UpdateRegistrationBody } from '@kisht/contract/customers';
import { ok } from '../../shared/reply.ts';
import { authOf, SIGNED_IN } from '../../plugins/route-config.ts';
import type { CustomersService } from './customers.service.ts';

const errors = { 400: ErrorReply, 401: ErrorReply, 403: ErrorReply, 404: ErrorReply, 409: ErrorReply, 511: ErrorReply };
const tags = ['customers'];
const security = [{ bearer: [] }];

export async function customersRoutes(app: App, opts: { customers: CustomersService }) {
  const { customers } = opts;

  app.post('/api/customer', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'customer.enrol' },
    schema: { tags, security, summary: 'Enrol a customer: record, IMEIs, EMI schedule and one license key, all or nothing', body: CreateCustomerBody, response: { 200: Ok(CustomerCreated), ...errors } },
  }, async (request) => ok(request, await customers.create(authOf(request), request.body), 'CUSTOMER_CREATED'));

  app.post('/api/customer/create-customer-hdb', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'customer.enrol' },
    schema: { tags, security, summary: "Enrol a customer financed by a financier, with the references that financier requires", body: CreateFinancedCustomerBody, response: { 200: Ok(CustomerCreated), ...errors } },
  }, async (request) => ok(request, await customers.create(authOf(request), request.body), 'CUSTOMER_CREATED'));

  app.post('/api/customer/plan-phone', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'customer.enrol' },
    schema: { tags, security, summary: 'Enrol a phone on an anti-theft or family-care plan alone (no loan): owner, phone, plan and one key of the plan\'s type', body: CreatePlanPhoneBody, response: { 200: Ok(CustomerCreated), ...errors } },
  }, async (request) => ok(request, await customers.createPlanPhone(authOf(request), request.body), 'CUSTOMER_CREATED'));

  app.post('/api/customer/update_customer_detailsV3', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: "Edit a customer's personal details", body: UpdateCustomerDetailsBody, response: { 200: Ok(CustomerProfile), ...errors } },
  }, async (request) => ok(request, await customers.updateDetails(authOf(request), request.body), 'CUSTOMER_UPDATED'));

  app.post('/api/customer/cancel_enrolment', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'customer.cancel' },
    schema: {
      tags, security, summary: 'Cancel an enrolment whose phone never enrolled and on which nothing was paid; its license key goes back',
      body: Type.Object({ customer_id: Type.Integer({ minimum: 1, maximum: 2147483647 }) }, { additionalProperties: false }),
      response: { 200: Ok(Type.Object({ customer_id: Type.Integer(), keys_left: Type.Union([Type.Integer(), Type.Null()]) })), ...errors },
    },
  }, async (request) => ok(request, await customers.cancelEnrolment(authOf(request), request.body.customer_id), 'ENROLMENT_CANCELLED'));

  app.post('/api/customer/customerRegistrationByKegenUpdateV3', {
    config: { callers: SIGNED_IN, scope: 'account', audit: 'customer.edit_registration' },
    schema: { tags, security, summary: "Edit a customer's device registration (IMEIs unique among active loans)", body: UpdateRegistrationBody, response: { 200: Ok(CustomerProfile), ...errors } },
  }, async (request) => ok(request, await customers.updateRegistration(authOf(request), request.body), 'CUSTOMER_UPDATED'));

  app.get('/api/customer/get_customers_keygen', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: 'Customers of your network: paged, searched by name, mobile or IMEI, filtered by status, lock, dates, retailer', querystring: CustomerListQuery, response: { 200: Ok(CustomerList), ...errors } },
  }, async (request) => ok(request, await customers.list(authOf(request), request.query)));

  app.get('/api/country/getCustomerProfile', {
    config: { callers: SIGNED_IN, scope: 'account' },
    schema: { tags, security, summary: 'One customer of your network (identity number masked)', querystring: Type.Object({ customer_id: Type.Integer({ minimum: 1 }) }), response: { 200: Ok(CustomerProfile), ...errors } },
  }, async (request) => ok(request, await customers.profile(authOf(request), request.query.customer_id)));
}
