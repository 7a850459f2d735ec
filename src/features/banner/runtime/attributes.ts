/** Marks what the banner blocked. */
export const BLOCKED = 'data-ccm-blocked';
/** Marks scripts the banner itself put in the page (its runtime, released code): never blocked. */
export const OWN = 'data-ccm-own';
/** Marks an iframe the visitor chose to load once: never blocked again. */
export const ALLOWED = 'data-ccm-allowed';
/** Marks the placeholders where blocked iframes were: what is inside them is the runtime's business. */
export const PLACEHOLDER = 'data-ccm-placeholder';
