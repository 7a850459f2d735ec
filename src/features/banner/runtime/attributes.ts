/** Marks what the banner blocked. */
export const BLOCKED = 'data-ccm-blocked';
/** Why a held script or image waits: `service` (its service's consent), `always` (the domain's blocked markers), `unknown` (no service claims it). */
export const HOLD = 'data-ccm-hold';
/** Marks what the snippet's guard held before the domain's configuration arrived: the blocker judges it then. */
export const PENDING = 'data-ccm-pending';
/** Where a held image keeps its address. */
export const HELD_SRC = 'data-ccm-src';
/** Marks scripts the banner itself put in the page (its runtime, released code): never blocked. */
export const OWN = 'data-ccm-own';
/**
 * Marks the site's own `type="text/plain" data-category` scripts, which cookieconsent runs on
 * consent: its copy keeps the attribute, so the blocker leaves it alone.
 */
export const MANAGED = 'data-ccm-managed';
/** Marks an iframe the visitor chose to load once: never blocked again. */
export const ALLOWED = 'data-ccm-allowed';
/** Marks the placeholders where blocked iframes were: what is inside them is the runtime's business. */
export const PLACEHOLDER = 'data-ccm-placeholder';
