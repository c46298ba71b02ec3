/**
 * Image uploads: a multipart body with one id field and one file. A body that is not multipart, has no
 * boundary, is cut short or is otherwise malformed is the caller's mistake (400); one that is too big answers 413.
 */
import type { FastifyRequest } from 'fastify';
import { FILE_SIZE_LIMIT_BYTES } from '@kisht/domain/constants';
import { INT4_MAX } from '@kisht/contract/fields';
import { findControlCharacters } from '../plugins/input-guard.ts';
import { AppError } from '../errors.ts';

const invalid = (field: string, message: string, rule: 'required' | 'invalid' | 'control_characters' = 'invalid') =>
  new AppError('VALIDATION_FAILED', { details: [{ field, message, rule }] });

/**
 * The id field's value and the file. `optional`: the id may be left out (null), e.g. one's own profile image;
 * otherwise it is required.
 */
export async function readUpload(request: FastifyRequest, idField: string, optional = false): Promise<{ id: number | null; file: Buffer }> {
  if (!request.isMultipart()) throw invalid('body', 'must be multipart/form-data');
  let idText: string | null = null;
  let file: Buffer | null = null;
  try {
    const parts = request.parts({ limits: { fileSize: FILE_SIZE_LIMIT_BYTES, files: 1, fields: 4, parts: 5, fieldSize: 64 } });
    for await (const part of parts) {
      if (part.type === 'file') file = await part.toBuffer();
      else if (part.fieldname === idField) idText = part.valueTruncated ? '' : String(part.value);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    // Only the request's own bytes are read here, so whatever fails is the body's fault.
    if ((error as { statusCode?: number }).statusCode === 413) throw new AppError('PAYLOAD_TOO_LARGE');
    throw invalid('body', 'is not a complete multipart/form-data body');
  }
  let id: number | null = null;
  if (idText === null) {
    if (!optional) throw invalid(idField, 'is required', 'required');
  } else {
    if (findControlCharacters(idText, undefined) !== null) throw invalid(idField, 'must not contain control characters', 'control_characters');
    id = /^[1-9][0-9]{0,9}$/.test(idText) ? Number(idText) : NaN;
    if (!(id <= INT4_MAX)) throw invalid(idField, 'must be an id');
  }
  if (!file) throw invalid('file', 'is required', 'required');
  return { id, file };
}
