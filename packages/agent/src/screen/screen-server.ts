/**
 * The virtual phone page: one HTML page, its state as JSON, live updates over server-sent events, and the
 * few inputs a customer (or a tester) has: a code, "Pay now" and "I paid" on the lock screen, the network, a SIM
 * swap, dismissing an alert, a reboot, a child opening and closing apps under family care, and opening the shop's
 * offers or switching them off. An offer's picture is fetched by the agent with the phone's credentials and passed
 * on, so the page never holds them.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { CodeResult, DeviceAgent, ProtectionProblem } from '../agent.ts';
import { HttpError, NetworkDownError, type OfferImage } from '../device-api.ts';
import { lockScreenUp } from '../offers.ts';
import { buildView, NO_PAYMENT, type PaymentPanel, type PaymentProblem } from './view.ts';
import { phoneStrings } from './i18n.ts';

export interface ScreenOptions {
  port?: number;
  host?: string;
  /** The organisation named on the home screen ("Protected by ..."). */
  org?: string;
}

export interface ScreenServer {
  url: string;
  close(): Promise<void>;
}

const PAGE = readFileSync(new URL('./page.html', import.meta.url), 'utf8');
const MAX_BODY = 16 * 1024;

function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
      }
    });
    req.on('end', () => {
      if (!text) return resolve({});
      try {
        if ((req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) resolve(Object.fromEntries(new URLSearchParams(text)));
        else resolve(JSON.parse(text) as Record<string, unknown>);
      } catch {
        reject(new Error('body is not JSON'));
      }
    });
    req.on('error', reject);
  });
}

/** What the customer is told when a payment button fails; the server's codes decide, not its English text. */
function paymentProblem(error: unknown): PaymentProblem {
  if (error instanceof NetworkDownError) return 'offline';
  if (error instanceof HttpError) {
    if (error.code === 'GATEWAY_NOT_CONFIGURED') return 'unavailable';
    if (error.code === 'NOTHING_DUE') return 'nothingDue';
    if (error.code === 'RATE_LIMITED') return 'tooSoon';
    if (error.code === 'VALIDATION_FAILED') return 'badReference';
  }
  return 'failed';
}

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

export async function startScreen(agent: DeviceAgent, options: ScreenOptions = {}): Promise<ScreenServer> {
  const org = options.org;
  let lastCode: CodeResult | null = null;
  let payment: PaymentPanel = NO_PAYMENT;
  let protectionProblem: ProtectionProblem | null = null;
  const streams = new Set<ServerResponse>();
  let pending = false;

  const view = () => buildView(agent, org, lastCode, payment, protectionProblem);
  // An order or a sent claim belongs to this lock: once the server unlocks the phone, the next lock starts afresh.
  const forgetPaymentWhenUnlocked = () => {
    if (payment !== NO_PAYMENT && agent.enrolled && !agent.snapshot().screen.locked) payment = NO_PAYMENT;
  };

  // Many state changes come in bursts; one push per turn of the event loop is enough.
  function push(): void {
    forgetPaymentWhenUnlocked();
    if (pending || streams.size === 0) return;
    pending = true;
    setImmediate(() => {
      pending = false;
      view()
        .then((v) => {
          const frame = `data: ${JSON.stringify(v)}\n\n`;
          for (const res of streams) res.write(frame);
        })
        .catch(() => undefined);
    });
  }
  const onCode = (result: CodeResult) => {
    lastCode = result;
    push();
  };
  agent.on('change', push);
  agent.on('connection', push);
  agent.on('code', onCode);

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://phone');
    const key = `${req.method} ${url.pathname}`;
    switch (key) {
      case 'GET /':
        return send(res, 200, PAGE, 'text/html; charset=utf-8');
      case 'GET /state':
        forgetPaymentWhenUnlocked();
        return send(res, 200, await view());
      case 'GET /strings':
        return send(res, 200, phoneStrings(url.searchParams.get('lng')));
      case 'GET /events': {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
        res.write(`data: ${JSON.stringify(await view())}\n\n`);
        streams.add(res);
        req.on('close', () => streams.delete(res));
        return;
      }
      case 'POST /code': {
        const body = await readBody(req);
        const result = agent.enterCode(String(body.code ?? ''));
        return send(res, 200, result);
      }
      case 'POST /network': {
        const body = await readBody(req);
        const on = body.on === true || body.on === 'on' || body.on === 'true';
        if (on) agent.goOnline();
        else await agent.goOffline();
        return send(res, 200, { online: agent.isOnline });
      }
      case 'POST /sim': {
        const body = await readBody(req);
        const slot = Number(body.slot);
        if (!Number.isInteger(slot) || slot < 1 || slot > 2) return send(res, 400, { error: 'slot must be 1 or 2' });
        // The page numbers SIMs 1 and 2 as the phone does; the protocol's slots start at 0.
        agent.swapSim(slot - 1, String(body.operator ?? ''), String(body.iccid ?? ''));
        return send(res, 200, { sims: agent.snapshot().screen.sims });
      }
      case 'POST /pay-now': {
        try {
          payment = { ...payment, order: await agent.payNow(), problem: null };
        } catch (error) {
          payment = { ...payment, problem: paymentProblem(error) };
        }
        push();
        return send(res, 200, payment);
      }
      case 'POST /i-paid': {
        const body = await readBody(req);
        const reference = String(body.reference ?? '').replace(/\s+/g, '');
        try {
          await agent.claimPaid(reference || undefined);
          payment = { ...payment, claimSent: true, problem: null };
        } catch (error) {
          payment = { ...payment, problem: paymentProblem(error) };
        }
        push();
        return send(res, 200, payment);
      }
      case 'POST /protection': {
        // The security app's Activate button: the code the shop gave and the buyer's mobile number.
        const body = await readBody(req);
        const result = await agent.activateProtection(String(body.code ?? ''), String(body.mobile ?? ''));
        protectionProblem = result.ok ? null : result.problem;
        push();
        return send(res, 200, result);
      }
      case 'POST /open-app': {
        // The child taps an app; the rules on the phone decide whether it opens.
        const body = await readBody(req);
        const app = String(body.app ?? '');
        if (app.length < 1 || app.length > 150) return send(res, 400, { error: 'app must be a package name' });
        return send(res, 200, agent.openApp(app));
      }
      case 'POST /close-app':
        agent.closeApp();
        return send(res, 200, { ok: true });
      case 'POST /open-offer': {
        // The customer taps an offer: the first tap reports it opened.
        const body = await readBody(req);
        const campaignId = Number(body.campaign_id);
        if (!Number.isSafeInteger(campaignId) || campaignId < 1) return send(res, 400, { error: 'campaign_id must be a positive integer' });
        if (agent.enrolled && lockScreenUp(agent.snapshot())) return send(res, 409, { error: 'locked' });
        const offer = agent.openOffer(campaignId);
        return offer ? send(res, 200, offer) : send(res, 404, { error: 'no such offer' });
      }
      case 'POST /offers': {
        // The "Shop offers" switch: on shows the shop's offers, off opts out of them.
        const body = await readBody(req);
        if (typeof body.on !== 'boolean') return send(res, 400, { error: 'on must be true or false' });
        agent.setOffersOptOut(!body.on);
        return send(res, 200, { opted_out: !body.on });
      }
      case 'GET /offer-image': {
        const campaignId = Number(url.searchParams.get('campaign_id'));
        if (!Number.isSafeInteger(campaignId) || campaignId < 1) return send(res, 400, { error: 'campaign_id must be a positive integer' });
        let image: OfferImage | null;
        try {
          image = await agent.offerImage(campaignId);
        } catch (error) {
          return send(res, error instanceof NetworkDownError ? 503 : 502, { error: 'the picture could not be fetched' });
        }
        if (!image) return send(res, 404, { error: 'no such picture' });
        res.writeHead(200, { 'content-type': image.contentType, 'content-length': image.bytes.length, 'cache-control': 'private, max-age=3600' });
        res.end(image.bytes);
        return;
      }
      case 'POST /dismiss-alert':
        agent.dismissAlert();
        return send(res, 200, { ok: true });
      case 'POST /reboot':
        await agent.reboot();
        return send(res, 200, { ok: true });
      default:
        return send(res, 404, { error: 'not found' });
    }
  }

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (res.headersSent) res.end();
      else send(res, 400, { error: (error as Error).message });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address.includes(':') ? `[${address.address}]` : address.address}:${address.port}`,
    async close() {
      agent.off('change', push);
      agent.off('connection', push);
      agent.off('code', onCode);
      for (const res of streams) res.end();
      streams.clear();
      // The page's EventSource reconnects as soon as its stream ends, on a kept-alive socket that close() alone
      // would wait on for ever: every socket is cut once the server stops listening.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
