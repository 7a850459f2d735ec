/**
 * The banner's baseline: a bare node:http server that answers every request with the same bytes
 * and headers the service sent for one app.js (given as a JSON file in BODY_FILE: headers and the
 * gzipped body as base64), from memory, with the same 304 for a matching If-None-Match. What a
 * banner load can cost at best on this machine.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const { headers, gzipBase64 } = JSON.parse(readFileSync(process.env.BODY_FILE!, 'utf8')) as { headers: Record<string, string>; gzipBase64: string };
const body = Buffer.from(gzipBase64, 'base64');
const etag = headers.etag!;

createServer((req, res) => {
  if (req.url === '/stats') {
    res.setHeader('content-type', 'application/json');
    return void res.end('{"statements":0}');
  }
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (req.headers['if-none-match'] === etag) {
    res.statusCode = 304;
    return void res.end();
  }
  res.setHeader('content-encoding', 'gzip');
  res.setHeader('content-length', body.length);
  res.end(body);
}).listen(Number(process.env.PORT), '127.0.0.1');
