// Reference verifier for Sentinel webhook signatures, for Node.js 20 or later,
// using only the standard library (node:crypto).
//
// As a module:
//
//   import { verify } from './verify.mjs';
//   const r = verify({ secret, header: req.headers['service-signature'], body: rawBodyBuffer });
//   if (!r.ok) { res.statusCode = 401; return res.end(); }
//
// As a command (exit 0 when valid, 1 otherwise, with the reason on stderr):
//
//   node verify.mjs --secret whsec_... --header 't=...,v1=...' [--tolerance 300] [--now UNIX] < body
//
// The secret may also come from the environment variable SENTINEL_WEBHOOK_SECRET,
// which keeps it out of the process list.
//
// The rules match the Go package github.com/sentinel-sca/sentinel/webhook:
//  1. split the header on commas into key=value pairs (spaces and tabs around
//     parts, keys and values are trimmed; empty parts skipped; unknown keys
//     ignored); t must appear once, as canonical decimal Unix seconds;
//  2. reject when |now - t| > tolerance (300 s by default);
//  3. the signed string is the decimal t, a dot, then the raw body bytes;
//  4. the expected value is the lowercase hex HMAC-SHA256 keyed with the secret;
//  5. compare in constant time (crypto.timingSafeEqual); any v1 may match.

import { createHmac, timingSafeEqual } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const DEFAULT_TOLERANCE_SECONDS = 300;

const INT64_MAX = 9223372036854775807n;

function trimOWS(s) {
  return s.replace(/^[ \t]+|[ \t]+$/g, '');
}

/**
 * Parses a Service-Signature header value.
 * @param {string} header
 * @returns {{ok: true, t: bigint, v1: string[]} | {ok: false, reason: string}}
 */
export function parseSignatureHeader(header) {
  const h = trimOWS(String(header ?? ''));
  if (h === '') return { ok: false, reason: 'no signature: header is empty' };
  let t = null;
  const v1 = [];
  const parts = h.split(',');
  for (let i = 0; i < parts.length; i++) {
    const part = trimOWS(parts[i]);
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) return { ok: false, reason: `malformed signature header: part ${i + 1} is not a key=value pair` };
    const key = trimOWS(part.slice(0, eq));
    const value = trimOWS(part.slice(eq + 1));
    if (key === 't') {
      if (t !== null) return { ok: false, reason: 'malformed signature header: t appears more than once' };
      if (!/^(0|[1-9][0-9]{0,18})$/.test(value) || BigInt(value) > INT64_MAX) {
        return { ok: false, reason: 'malformed signature header: t is not a decimal Unix timestamp in seconds' };
      }
      t = BigInt(value);
    } else if (key === 'v1') {
      if (value !== '') v1.push(value);
    }
    // Unknown keys are ignored: later schemes must not break this verifier.
  }
  if (t === null) return { ok: false, reason: 'malformed signature header: t is missing' };
  if (v1.length === 0) return { ok: false, reason: 'no signature: no v1 value' };
  return { ok: true, t, v1 };
}

/**
 * Verifies one delivery.
 * @param {object} o
 * @param {string} o.secret      the webhook secret (whsec_...), used as the HMAC key as is
 * @param {string} o.header      the Service-Signature header value
 * @param {Buffer|Uint8Array|string} o.body  the raw request body, exactly as received
 * @param {number} [o.tolerance] seconds; 0 or less means 300
 * @param {number} [o.nowMs]     current time in milliseconds (for tests); defaults to Date.now()
 * @returns {{ok: boolean, reason?: string}}
 */
export function verify({ secret, header, body, tolerance = DEFAULT_TOLERANCE_SECONDS, nowMs = Date.now() }) {
  if (typeof secret !== 'string' || secret === '') return { ok: false, reason: 'empty secret' };
  const parsed = parseSignatureHeader(header);
  if (!parsed.ok) return parsed;
  const tol = Number(tolerance) > 0 ? Number(tolerance) : DEFAULT_TOLERANCE_SECONDS;

  // Milliseconds as BigInt, so that no timestamp loses precision.
  let diff = BigInt(Math.floor(nowMs)) - parsed.t * 1000n;
  if (diff < 0n) diff = -diff;
  if (diff > BigInt(Math.round(tol * 1000))) {
    return { ok: false, reason: `signature timestamp outside tolerance: signed at ${parsed.t}, now ${Math.floor(nowMs / 1000)}, tolerance ${tol}s` };
  }

  const raw = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body ?? []);
  const mac = createHmac('sha256', secret);
  mac.update(`${parsed.t}.`);
  mac.update(raw);
  const expected = Buffer.from(mac.digest('hex'), 'utf8');

  let match = false;
  for (const candidate of parsed.v1) {
    const got = Buffer.from(candidate, 'utf8');
    // timingSafeEqual throws on different lengths; a length mismatch is
    // a mismatch, and the length of a hex SHA-256 is public anyway.
    if (got.length === expected.length && timingSafeEqual(got, expected)) match = true;
  }
  return match ? { ok: true } : { ok: false, reason: 'signature mismatch' };
}

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const m = /^--(secret|header|tolerance|now)(?:=(.*))?$/s.exec(a);
    if (!m) throw new Error(`unknown argument ${JSON.stringify(a)}`);
    let v = m[2];
    if (v === undefined) {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      v = argv[++i];
    }
    out[m[1]] = v;
  }
  return out;
}

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return Buffer.concat(chunks);
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`usage: node verify.mjs --secret S --header H [--tolerance SECONDS] [--now UNIX] < body\n${e.message}\n`);
    return 1;
  }
  const secret = args.secret ?? process.env.SENTINEL_WEBHOOK_SECRET ?? '';
  const tolerance = args.tolerance === undefined ? DEFAULT_TOLERANCE_SECONDS : Number(args.tolerance);
  if (!Number.isFinite(tolerance)) {
    process.stderr.write('invalid: --tolerance must be a number of seconds\n');
    return 1;
  }
  let nowMs = Date.now();
  if (args.now !== undefined) {
    if (!/^-?[0-9]+$/.test(args.now)) {
      process.stderr.write('invalid: --now must be Unix seconds\n');
      return 1;
    }
    nowMs = Number(args.now) * 1000;
  }
  const body = await readStdin();
  const r = verify({ secret, header: args.header ?? '', body, tolerance, nowMs });
  if (r.ok) {
    process.stdout.write('valid\n');
    return 0;
  }
  process.stderr.write(`invalid: ${r.reason}\n`);
  return 1;
}

function isMain() {
  if (!process.argv[1]) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

if (isMain()) {
  process.exitCode = await main();
}
