/** Stylesheets are bundled as text (esbuild's text loader). */
declare module '*.css' {
  const text: string;
  export default text;
}

/** Set by the bundler: the runtime's version, as `CCM.version` reports it. */
declare const __CCM_RUNTIME_VERSION__: string;
