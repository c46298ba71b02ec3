/** The payment gateway PAYMENT_GATEWAY names, with its keys from config; null when none is configured. */
import type { Config } from '../../config.ts';
import type { PaymentGateway } from './payment-gateway.ts';
import { createRazorpayGateway } from './razorpay.ts';

export function createPaymentGateway(config: Pick<Config, 'PAYMENT_GATEWAY' | 'RAZORPAY_BASE_URL' | 'RAZORPAY_KEY_ID' | 'RAZORPAY_KEY_SECRET' | 'RAZORPAY_WEBHOOK_SECRET'>): PaymentGateway | null {
  if (config.PAYMENT_GATEWAY !== 'razorpay') return null;
  // config.ts refuses to start with PAYMENT_GATEWAY=razorpay and any of the three missing.
  return createRazorpayGateway({ baseUrl: config.RAZORPAY_BASE_URL, keyId: config.RAZORPAY_KEY_ID!, keySecret: config.RAZORPAY_KEY_SECRET!, webhookSecret: config.RAZORPAY_WEBHOOK_SECRET! });
}
