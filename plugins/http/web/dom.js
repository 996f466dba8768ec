// Shared by the node's web pages (served at /common/dom.js). Every value from the API reaches a
// page as text nodes or attributes, never as HTML: names, memos and contract data are
// user-controlled.

/** h('a', { href: '#/', class: 'x', onclick: fn }, 'text', childNode, ...) */
export function h (tag, attrs = {}, ...children) {
  const el = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue
    if (k === 'dataset') Object.assign(el.dataset, v)
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v)
    else el.setAttribute(k, v === true ? '' : String(v))
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue
    el.append(c instanceof Node ? c : document.createTextNode(String(c)))
  }
  return el
}
