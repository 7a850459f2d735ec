import { z } from 'zod';
import { DOMAIN_PATH, route } from '../feature.ts';
import { embeddingResponse } from '../embeddings/embedding.contract.ts';
import { createEmbeddingsFromCookies } from './cookies.operation.ts';
import { applyLegalFindingsReport } from './legal-findings.operation.ts';
import {
  onboardingCookieList,
  onboardingEmbedCodeSnippets,
  onboardingLegalFindings,
  onboardingLegalFindingsResult,
  onboardingPresetList,
  onboardingPresetResult,
  onboardingScanResult,
} from './onboarding.contract.ts';
import { importPresets } from './presets.operation.ts';
import { scanDomain } from './scan.operation.ts';
import { embedCodeSnippets } from './snippets.operation.ts';

export const ONBOARDING_TAG = {
  name: 'Onboarding',
  description: "Scan a website, put what it found about the operator into the placeholders, import presets, turn cookie names into embeddings, get the snippet.",
};
const TAG = ONBOARDING_TAG.name;

export const onboardingRoutes = [
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/onboarding/scan`, operationId: 'scanDomain', summary: "Scan domain (400: the site answers an error or an empty page, or its address is refused; 500: the crawl failed; 503: the scanner's browser does not start)",
    response: onboardingScanResult,
    operation: (ctx, p) => scanDomain(ctx, p), status: 200, errors: [400, 404, 409, 429, 500, 503], head: false }),
  // Not in CCM19: the scan's findings about the operator into the placeholders the banner texts use.
  route({ tag: TAG, method: 'PUT', path: `${DOMAIN_PATH}/onboarding/legalFindings`, operationId: 'applyLegalFindings', summary: "Apply a scan's legal findings (the answer names the placeholders the banner still misses)",
    body: onboardingLegalFindings, response: onboardingLegalFindingsResult,
    operation: (ctx, p, body) => applyLegalFindingsReport(ctx, p, body), status: 200, errors: [400, 404] }),
  route({ tag: TAG, method: 'POST', path: `${DOMAIN_PATH}/onboarding/presets`, operationId: 'importPresets', summary: 'Import presets', body: onboardingPresetList,
    response: z.array(onboardingPresetResult),
    operation: (ctx, p, body) => importPresets(ctx, p, body), status: 201, errors: [400, 404] }),
  route({ tag: TAG, method: 'POST', path: `${DOMAIN_PATH}/onboarding/embeddingsFromCookies`, operationId: 'createEmbeddingsFromCookies', summary: 'Embeddings from cookies', body: onboardingCookieList,
    response: z.array(embeddingResponse),
    operation: (ctx, p, body) => createEmbeddingsFromCookies(ctx, p, body), status: 201, errors: [400, 404] }),
  route({ tag: TAG, method: 'GET', path: `${DOMAIN_PATH}/onboarding/embed`, operationId: 'getEmbedSnippets', summary: 'Code snippets',
    response: onboardingEmbedCodeSnippets,
    operation: (ctx, p) => embedCodeSnippets(ctx, p), status: 200, errors: [404] }),
];
