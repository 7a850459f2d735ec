/** Writes the OpenAPI document the code builds to openapi.json (checked in; a test compares), its server at PUBLIC_BASE_URL's default address. */
import { writeFile } from 'node:fs/promises';
import { openApiSource } from '../src/app/http-app.ts';
import { COMMITTED_SERVER_URL, printedOpenApiDocument } from '../src/openapi/document.ts';

const target = new URL('../openapi.json', import.meta.url);
await writeFile(target, printedOpenApiDocument(openApiSource(COMMITTED_SERVER_URL)));
console.log(`wrote ${target.pathname}`);
