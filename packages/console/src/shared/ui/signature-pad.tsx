/**
 * A signature pad: a canvas drawn on with a finger, stylus or mouse (pointer events), with Clear.
 * After each stroke the drawing is exported as a PNG and handed to onChange (null once cleared).
 */
import { useEffect, useId, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';

export interface SignaturePadProps {
  label: string;
  onChange: (png: Blob | null) => void;
  error?: string | null;
  /** CSS pixels. */
  height?: number;
}

const INK = '#10182b';
const PAPER = '#ffffff';

export function SignaturePad({ label, onChange, error, height = 180 }: SignaturePadProps) {
  const { t } = useTranslation();
  const labelId = useId();
  const errorId = `${labelId}-error`;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const drawing = useRef<{ last: { x: number; y: number }; pointerId: number } | null>(null);
  const [empty, setEmpty] = useState(true);
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  });

  function paintPaper(canvas: HTMLCanvasElement) {
    const context = canvas.getContext('2d');
    if (!context) return;
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.fillStyle = PAPER;
    context.fillRect(0, 0, canvas.width, canvas.height);
    const ratio = canvas.width / canvas.clientWidth || 1;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.lineWidth = 2.4;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.strokeStyle = INK;
  }

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    // Sharp lines on high-density screens: the bitmap has the device's pixels, drawing uses CSS pixels.
    const ratio = Math.min(window.devicePixelRatio || 1, 3);
    canvas.width = Math.round(canvas.clientWidth * ratio);
    canvas.height = Math.round(height * ratio);
    paintPaper(canvas);
  }, [height]);

  function point(event: PointerEvent<HTMLCanvasElement>) {
    const rect = event.currentTarget.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

  function start(event: PointerEvent<HTMLCanvasElement>) {
    if (event.button !== 0 && event.pointerType === 'mouse') return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    const p = point(event);
    drawing.current = { last: p, pointerId: event.pointerId };
    const context = event.currentTarget.getContext('2d');
    if (!context) return;
    // A tap leaves a dot.
    context.beginPath();
    context.arc(p.x, p.y, 1.2, 0, Math.PI * 2);
    context.fillStyle = INK;
    context.fill();
  }

  function move(event: PointerEvent<HTMLCanvasElement>) {
    const stroke = drawing.current;
    if (!stroke || stroke.pointerId !== event.pointerId) return;
    const context = event.currentTarget.getContext('2d');
    if (!context) return;
    // Coalesced events keep fast strokes smooth on phones that batch touch input.
    const events = typeof event.nativeEvent.getCoalescedEvents === 'function' ? event.nativeEvent.getCoalescedEvents() : [];
    const rect = event.currentTarget.getBoundingClientRect();
    const points = events.length > 0 ? events.map((e) => ({ x: e.clientX - rect.left, y: e.clientY - rect.top })) : [point(event)];
    context.beginPath();
    context.moveTo(stroke.last.x, stroke.last.y);
    let last = stroke.last;
    for (const p of points) {
      const mid = { x: (last.x + p.x) / 2, y: (last.y + p.y) / 2 };
      context.quadraticCurveTo(last.x, last.y, mid.x, mid.y);
      last = p;
    }
    context.lineTo(last.x, last.y);
    context.stroke();
    stroke.last = last;
  }

  function end(event: PointerEvent<HTMLCanvasElement>) {
    const stroke = drawing.current;
    if (!stroke || stroke.pointerId !== event.pointerId) return;
    drawing.current = null;
    setEmpty(false);
    event.currentTarget.toBlob((blob) => changed.current(blob), 'image/png');
  }

  function clear() {
    const canvas = canvasRef.current;
    if (canvas) paintPaper(canvas);
    setEmpty(true);
    changed.current(null);
  }

  return (
    <div className="field">
      <span id={labelId} className="field__label">
        {label}
      </span>
      <div className={`signature-pad${error ? ' signature-pad--invalid' : ''}`}>
        <canvas
          ref={canvasRef}
          className="signature-pad__canvas"
          style={{ height }}
          role="img"
          aria-labelledby={labelId}
          aria-describedby={error ? errorId : undefined}
          onPointerDown={start}
          onPointerMove={move}
          onPointerUp={end}
          onPointerCancel={end}
        />
        {empty ? (
          <span className="signature-pad__hint" aria-hidden="true">
            {t('signaturePad.hint')}
          </span>
        ) : null}
      </div>
      <div className="signature-pad__actions">
        <button type="button" className="button button--secondary button--small" onClick={clear} disabled={empty}>
          {t('signaturePad.clear')}
        </button>
      </div>
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
