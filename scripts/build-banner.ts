/**
 * `npm run prepare` (run by `npm ci` and `npm install`): builds the banner's browser bundles
 * into node_modules/.cache (src/features/banner/runtime-bundle.ts). Never fails the install:
 * without them the service builds them at its first start.
 */
try {
  // Imported here, not above: a broken install of esbuild or of the libraries must not fail this script.
  const { loadBannerBundles } = await import('../src/features/banner/runtime-bundle.ts');
  const { bootstrap, runtime, runtimeHash } = await loadBannerBundles();
  console.log(`banner bundles ready: bootstrap ${bootstrap.length} bytes, runtime ${runtime.length} bytes (${runtimeHash.slice(0, 12)})`);
} catch (error) {
  console.warn(`could not build the banner bundles (the service builds them at its first start): ${error instanceof Error ? error.message : String(error)}`);
}
