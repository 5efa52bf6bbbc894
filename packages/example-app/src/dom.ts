// A tiny element builder, so that views read as the markup they make. No framework: the app is a few
// forms and tables, and keeping it plain DOM shows that the client needs nothing but fetch.

type Child = Node | string | number | null | undefined | false;
type Listeners = { [E in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[E]) => void };

export interface Props {
  /** Attributes; `false` leaves the attribute out, `true` sets it empty. */
  attrs?: Record<string, string | number | boolean | undefined>;
  on?: Listeners;
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props.attrs ?? {})) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const [type, listener] of Object.entries(props.on ?? {})) {
    element.addEventListener(type, listener as EventListener);
  }
  append(element, ...children);
  return element;
}

export function append(parent: Element, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(typeof child === 'number' ? String(child) : child);
  }
}

/** Replaces an element's content. */
export function render(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, ...children);
}

export function option(value: string, label: string = value, selected = false): HTMLOptionElement {
  return h('option', { attrs: { value, selected } }, label);
}
