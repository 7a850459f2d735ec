/**
 * Hooks into the DOM methods through which scripts put scripts, images and iframes in a page,
 * so the blocker decides before the browser acts. A script inserted by a script is prepared
 * (fetched, then run) the moment it is connected, and an image starts loading the moment it
 * gets a `src`, connected or not: observing the page afterwards is too late for both.
 *
 * - insertion (`appendChild`, `insertBefore`, `replaceChild`, `append`, `prepend`, `before`,
 *   `after`, `replaceWith`, `insertAdjacentElement`): `guard` sees every script, iframe and
 *   image of what is inserted, and where, before it is connected;
 * - `src` set on a script, image or iframe (property or `setAttribute`): `guardSource` sees the
 *   address before it is set and may keep it from being set;
 * - HTML written as text (`document.write`, `innerHTML`, `outerHTML`, `insertAdjacentHTML`):
 *   `rewrite` may change it before the parser sees it.
 */
export type Interception = {
  guard(element: Element, parent: Node | null): void;
  /** The address to set, or null to set none (the element was held). */
  guardSource(element: Element, address: string): string | null;
  rewrite(html: string): string;
};

const WATCHED = 'script, iframe, img';
const isWatched = (node: Element) => node instanceof HTMLScriptElement || node instanceof HTMLIFrameElement || node instanceof HTMLImageElement;

export function intercept(hooks: Interception): void {
  const inspect = (node: unknown, parent: Node | null) => {
    if (!(node instanceof Element || node instanceof DocumentFragment)) return;
    if (node instanceof Element && isWatched(node)) hooks.guard(node, parent);
    if (node.firstElementChild) node.querySelectorAll(WATCHED).forEach((inner) => hooks.guard(inner, parent));
  };

  type Method = (this: Node, ...args: unknown[]) => unknown;
  const wrap = (proto: object, name: string, inserted: (self: Node, args: unknown[]) => { nodes: unknown[]; parent: Node | null }) => {
    const original = (proto as Record<string, unknown>)[name];
    if (typeof original !== 'function') return;
    (proto as Record<string, Method>)[name] = function (this: Node, ...args: unknown[]) {
      const { nodes, parent } = inserted(this, args);
      nodes.forEach((node) => inspect(node, parent));
      return (original as Method).apply(this, args);
    };
  };

  const into = (self: Node, args: unknown[]) => ({ nodes: args.slice(0, 1), parent: self });
  const beside = (self: Node, args: unknown[]) => ({ nodes: args, parent: self.parentNode });
  wrap(Node.prototype, 'appendChild', into);
  wrap(Node.prototype, 'insertBefore', into);
  wrap(Node.prototype, 'replaceChild', into);
  for (const proto of [Element.prototype, DocumentFragment.prototype, Document.prototype]) {
    wrap(proto, 'append', (self, args) => ({ nodes: args, parent: self }));
    wrap(proto, 'prepend', (self, args) => ({ nodes: args, parent: self }));
  }
  for (const name of ['before', 'after', 'replaceWith']) wrap(Element.prototype, name, beside);
  wrap(Element.prototype, 'insertAdjacentElement', (self, args) => ({
    nodes: args.slice(1, 2),
    parent: /^(beforebegin|afterend)$/i.test(String(args[0])) ? self.parentNode : self,
  }));

  for (const Type of [HTMLScriptElement, HTMLImageElement, HTMLIFrameElement]) {
    const descriptor = Object.getOwnPropertyDescriptor(Type.prototype, 'src');
    if (!descriptor?.set) continue;
    const set = descriptor.set;
    Object.defineProperty(Type.prototype, 'src', {
      ...descriptor,
      set(this: Element, value: unknown) {
        const address = hooks.guardSource(this, String(value));
        if (address !== null) set.call(this, address);
      },
    });
  }
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (this: Element, name: string, value: string) {
    if (String(name).toLowerCase() === 'src' && isWatched(this)) {
      const address = hooks.guardSource(this, String(value));
      if (address !== null) setAttribute.call(this, name, address);
      return;
    }
    setAttribute.call(this, name, value);
  };

  const rewriting = (proto: object, name: string) => {
    const descriptor = Object.getOwnPropertyDescriptor(proto, name);
    if (!descriptor?.set) return;
    const set = descriptor.set;
    Object.defineProperty(proto, name, {
      ...descriptor,
      set(this: Element, value: unknown) {
        set.call(this, typeof value === 'string' ? hooks.rewrite(value) : value);
      },
    });
  };
  rewriting(Element.prototype, 'innerHTML');
  rewriting(Element.prototype, 'outerHTML');
  const insertAdjacentHTML = Element.prototype.insertAdjacentHTML;
  Element.prototype.insertAdjacentHTML = function (this: Element, position: InsertPosition, html: string) {
    insertAdjacentHTML.call(this, position, hooks.rewrite(String(html)));
  };
  for (const name of ['write', 'writeln'] as const) {
    const original = Document.prototype[name];
    Document.prototype[name] = function (this: Document, ...html: string[]) {
      original.apply(this, html.map((part) => hooks.rewrite(String(part))));
    };
  }
}
