/**
 * The "Do Not Sell or Share My Personal Information" control: a small modal dialog (the
 * browser's own `<dialog>`: focus kept inside, Escape closes, focus back where it was) with one
 * choice. English only: the domain's locales carry no texts for it yet.
 */

const TEXTS = {
  title: 'Do Not Sell or Share My Personal Information',
  intro:
    'You may opt out of the sale and sharing of your personal information and of its use for targeted advertising. ' +
    'Advertising, personalisation and social media services then stay off on this site.',
  optOut: 'Opt out of sale and sharing',
  optedOut: 'You have opted out of the sale and sharing of your personal information.',
  close: 'Close',
};

const STYLE =
  'max-width:28rem;padding:1.25rem;border:1px solid #555;border-radius:.5rem;background:#fff;color:#111;font:15px/1.45 system-ui,sans-serif';

export type DoNotSellControl = { open(): void };

/** The control; `optedOut()` says the present state, `optOut()` saves the choice. */
export function doNotSellControl(optedOut: () => boolean, optOut: () => void): DoNotSellControl {
  let dialog: HTMLDialogElement | null = null;

  const render = (into: HTMLDialogElement) => {
    into.replaceChildren();
    const title = document.createElement('h2');
    title.id = 'ccm-do-not-sell-title';
    title.textContent = TEXTS.title;
    title.style.cssText = 'margin:0 0 .5rem;font-size:1.15rem';
    const text = document.createElement('p');
    text.textContent = optedOut() ? TEXTS.optedOut : TEXTS.intro;
    text.setAttribute('role', 'status');
    const buttons = document.createElement('div');
    buttons.style.cssText = 'display:flex;gap:.5rem;justify-content:flex-end;margin-top:1rem';
    if (!optedOut()) {
      const choose = button(TEXTS.optOut, 'ccm-do-not-sell-opt-out', true);
      choose.addEventListener('click', () => {
        optOut();
        render(into);
        into.querySelector<HTMLButtonElement>('button')?.focus();
      });
      buttons.append(choose);
    }
    const close = button(TEXTS.close, 'ccm-do-not-sell-close', false);
    close.addEventListener('click', () => into.close());
    buttons.append(close);
    into.append(title, text, buttons);
  };

  return {
    open() {
      if (!dialog) {
        dialog = document.createElement('dialog');
        dialog.id = 'ccm-do-not-sell';
        dialog.setAttribute('aria-labelledby', 'ccm-do-not-sell-title');
        dialog.style.cssText = STYLE;
        document.body.append(dialog);
      }
      if (dialog.open) return;
      render(dialog);
      dialog.showModal();
    },
  };
}

function button(label: string, className: string, primary: boolean): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.className = className;
  element.textContent = label;
  element.style.cssText = `padding:.45rem .9rem;border-radius:.35rem;border:1px solid #224;cursor:pointer;font:inherit;${primary ? 'background:#224;color:#fff' : 'background:#fff;color:#224'}`;
  return element;
}
