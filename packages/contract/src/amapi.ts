/** Android Management API: binding the organisation's enterprise (getOauthUrl and its callback) and the enrolment QR. */
import { Type, type Static } from 'typebox';

export const OauthUrl = Type.Object({ url: Type.String({ description: "Google's enterprise sign-up page; it returns to our callback" }) });
export type OauthUrl = Static<typeof OauthUrl>;

export const AmapiCallbackQuery = Type.Object({
  state: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }),
  enterpriseToken: Type.String({ minLength: 1, maxLength: 512 }),
});
export type AmapiCallbackQuery = Static<typeof AmapiCallbackQuery>;

export const AmapiEnterprise = Type.Object({ organisation_id: Type.Integer(), enterprise_name: Type.String() });
export type AmapiEnterprise = Static<typeof AmapiEnterprise>;
