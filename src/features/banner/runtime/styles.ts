import cookieConsentCss from 'vanilla-cookieconsent/dist/cookieconsent.css';
import iframeManagerCss from '@orestbida/iframemanager/dist/iframemanager.css';

/** The runtime's own elements: logo, floating settings button, notice for iframes without an embedding. */
const OWN_CSS = `
#cc-main .ccm-logo{display:block;max-width:60%;max-height:2.5rem;margin:0 1.3rem .75rem;object-fit:contain;object-position:left}
.ccm-settings-button{position:fixed;left:1rem;bottom:1rem;z-index:2147483646;box-sizing:border-box;display:flex;align-items:center;justify-content:center;width:3rem;height:3rem;padding:.6rem;margin:0;border:0;border-radius:50%;background:var(--cc-btn-primary-bg,#30363c);color:var(--cc-btn-primary-color,#fff);box-shadow:0 .25rem .75rem rgba(0,0,0,.3);cursor:pointer}
.ccm-settings-button:hover{background:var(--cc-btn-primary-hover-bg,#000);color:var(--cc-btn-primary-hover-color,#fff)}
.ccm-settings-button:focus-visible{outline:3px solid var(--cc-btn-primary-bg,#30363c);outline-offset:3px}
.ccm-settings-button img,.ccm-settings-button svg{display:block;width:100%;height:100%;object-fit:contain}
.ccm-settings-button[hidden],html.show--consent .ccm-settings-button,html.show--preferences .ccm-settings-button{display:none}
.ccm-blocked-iframe{box-sizing:border-box;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:.75rem;max-width:100%;min-height:9rem;padding:1rem;background:#0b1016;color:#fff;text-align:center}
.ccm-blocked-iframe p{margin:0}
.ccm-blocked-iframe__host{font-weight:600}
.ccm-blocked-iframe button{padding:.5em 1em;border:0;border-radius:.4rem;background:#fff;color:#0b1016;font:inherit;font-weight:600;cursor:pointer}
.ccm-blocked-iframe button:focus-visible{outline:2px solid #fff;outline-offset:2px}
`;

/** The libraries' stylesheets, the runtime's, then the domain's theme (last, so that it wins). */
export function injectStyles(themeCss: string): void {
  const style = document.createElement('style');
  style.setAttribute('data-ccm-styles', '');
  style.textContent = [cookieConsentCss, iframeManagerCss, OWN_CSS, themeCss].join('\n');
  (document.head ?? document.documentElement).appendChild(style);
}
