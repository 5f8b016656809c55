// Request body parsing: form-encoded and multipart bodies (the official JavaScript client sends
// multipart for every POST), decoded by well-kept libraries into flat string fields.
import express, { type RequestHandler } from 'express';
import multer from 'multer';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export function formBodyParsers(): RequestHandler[] {
  const urlencoded = express.urlencoded({ extended: false, limit: BODY_LIMIT_BYTES, parameterLimit: 2000 });
  const multipart = multer({ limits: { fieldSize: BODY_LIMIT_BYTES, fields: 2000, files: 0 } }).none();
  return [urlencoded, multipart];
}
