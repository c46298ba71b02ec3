/**
 * APNs for MDM: a push carries only the device's PushMagic; the phone then connects to our MDM endpoint and
 * fetches what is queued. HTTP/2 to `<APPLE_APNS_URL>/3/device/<token>` with the MDM push certificate as the
 * TLS client certificate and its topic in `apns-topic`.
 */
import http2 from 'node:http2';

export interface PushSender {
  /** Resolves when APNs has accepted the push; rejects with APNs' reason otherwise. */
  push(token: string, pushMagic: string): Promise<void>;
  close(): void;
}

export class ApnsError extends Error {
  constructor(readonly status: number, readonly reason: string) {
    super(`APNs answered ${status} ${reason}`);
  }
}

export class Http2ApnsClient implements PushSender {
  private session: http2.ClientHttp2Session | null = null;

  constructor(private readonly options: { url: string; topic: string; cert?: string; key?: string; timeoutMs?: number }) {}

  private connect(): http2.ClientHttp2Session {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    const session = http2.connect(this.options.url, { ...(this.options.cert ? { cert: this.options.cert } : {}), ...(this.options.key ? { key: this.options.key } : {}) });
    // A broken connection is dropped and the next push opens a new one.
    session.on('error', () => undefined);
    session.on('close', () => {
      if (this.session === session) this.session = null;
    });
    session.on('goaway', () => session.close());
    this.session = session;
    return session;
  }

  push(token: string, pushMagic: string): Promise<void> {
    if (!/^[0-9a-f]{16,200}$/i.test(token)) return Promise.reject(new ApnsError(400, 'BadDeviceToken'));
    return new Promise((resolve, reject) => {
      let request: http2.ClientHttp2Stream;
      try {
        request = this.connect().request({
          ':method': 'POST', ':path': `/3/device/${token}`,
          'apns-topic': this.options.topic, 'apns-push-type': 'mdm', 'apns-priority': '10', 'content-type': 'application/json',
        });
      } catch (error) {
        reject(error as Error);
        return;
      }
      request.setTimeout(this.options.timeoutMs ?? 10_000, () => request.close(http2.constants.NGHTTP2_CANCEL));
      let status = 0;
      let body = '';
      request.on('response', (headers) => {
        status = Number(headers[':status']);
      });
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => {
        body += chunk;
      });
      request.on('end', () => {
        if (status === 200) return resolve();
        let reason = 'Unknown';
        try {
          reason = (JSON.parse(body) as { reason?: string }).reason ?? reason;
        } catch {
          // APNs answers errors as JSON; anything else keeps "Unknown"
        }
        reject(new ApnsError(status, reason));
      });
      request.on('error', reject);
      request.end(JSON.stringify({ mdm: pushMagic }));
    });
  }

  close(): void {
    this.session?.close();
    this.session = null;
  }
}
