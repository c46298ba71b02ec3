/** Text messages go out through one of these, chosen by SMS_PROVIDER; the SMS queue's worker is the only caller. */
export interface SmsMessage {
  to: string;
  body: string;
  purpose: string;
}

export interface SmsProvider {
  readonly name: string;
  /**
   * True when sending only writes to our own database (the development outbox): a request may then wait
   * for delivery, so a code is readable as soon as the request answers. Never true for a real vendor.
   */
  readonly local?: boolean;
  /** Resolves once the message is accepted; throws to have the queue try again later. */
  send(message: SmsMessage): Promise<void>;
}
