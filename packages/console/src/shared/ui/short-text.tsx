/**
 * A name shown in a list or a chip: cut to the specification's 10 characters with an ellipsis (section 9),
 * counting what a reader sees as one letter (a Tamil or Devanagari letter with its vowel sign is one), with
 * the whole text kept as the tooltip and as what a screen reader reads.
 */
import { truncateText } from '@kisht/domain/format';

/** The specification's limit for text in lists and chips. */
export const SHORT_TEXT_LIMIT = 10;

type Segmenter = { segment(text: string): Iterable<{ segment: string }> };
const segmenter: Segmenter | null =
  typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new (Intl as unknown as { Segmenter: new (l?: string, o?: object) => Segmenter }).Segmenter(undefined, { granularity: 'grapheme' }) : null;

/** The text cut after `limit` letters with "...", whole letters only (the domain rule where Intl.Segmenter is missing). */
export function shortText(text: string, limit = SHORT_TEXT_LIMIT): string {
  if (!segmenter) return truncateText(text, limit);
  const letters = Array.from(segmenter.segment(text), (s) => s.segment);
  return letters.length > limit ? `${letters.slice(0, limit).join('').trimEnd()}...` : text;
}

export function ShortText({ text, limit = SHORT_TEXT_LIMIT, className }: { text: string; limit?: number; className?: string }) {
  const short = shortText(text, limit);
  if (short === text) return <span className={className}>{text}</span>;
  return (
    <span className={className} title={text}>
      <span aria-hidden="true">{short}</span>
      <span className="visually-hidden">{text}</span>
    </span>
  );
}
