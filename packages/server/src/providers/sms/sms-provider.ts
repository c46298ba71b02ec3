/** Text messages go out through one of these, chosen by SMS_PROVIDER. */
export interface SmsMessage {
  to: string;
  body: string;
  purpose: string;
}

export interface SmsProvider {
  readonly name: string;
  send(message: SmsMessage): Promise<void>;
}
