/*
 * CoreDataBrowser — Lab view: a JSON value in the content pane: parsed when it is an object or array, and
 * highlighted token by token (up to JSON_HIGHLIGHT_LIMIT characters).
 */

import { el } from '../../shared/dom.js';
import { setVisibleText } from '../../shared/visible-text.js';
import { JSON_HIGHLIGHT_LIMIT } from './state.js';

/** The parsed value when `text` is a JSON object or array, else null. */
function parseStructuredJSON(text) {
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return null;
  try {
    const parsed = JSON.parse(trimmed);
    return parsed !== null && typeof parsed === 'object' ? parsed : null;
  } catch {
    return null;
  }
}

const JSON_TOKEN = /\s+|"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|[{}[\],:]/y;

/**
 * Pretty-prints JSON by re-indenting its own tokens, so numbers keep their exact
 * digits (JSON.parse would round integers beyond 2^53). Highlighted with spans.
 */
function renderJSONInto(pre, text, parsed) {
  const source = text.trim();
  if (source.length > JSON_HIGHLIGHT_LIMIT) {
    setVisibleText(pre, JSON.stringify(parsed, null, 2));
    return;
  }
  const tokens = [];
  JSON_TOKEN.lastIndex = 0;
  while (JSON_TOKEN.lastIndex < source.length) {
    const match = JSON_TOKEN.exec(source);
    if (!match) {
      setVisibleText(pre, JSON.stringify(parsed, null, 2));
      return;
    }
    if (!/^\s/.test(match[0])) tokens.push(match[0]);
  }
  const frag = document.createDocumentFragment();
  let depth = 0;
  const out = (kind, text) => frag.append(kind ? el('span', kind, text) : document.createTextNode(text));
  const newline = () => out(null, `\n${'  '.repeat(depth)}`);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const next = tokens[i + 1];
    if (token === '{' || token === '[') {
      out('j-punct', token);
      const close = token === '{' ? '}' : ']';
      if (next === close) {
        out('j-punct', close);
        i++;
      } else {
        depth++;
        newline();
      }
    } else if (token === '}' || token === ']') {
      depth--;
      newline();
      out('j-punct', token);
    } else if (token === ',') {
      out('j-punct', ',');
      newline();
    } else if (token === ':') {
      out('j-punct', ': ');
    } else if (token[0] === '"') {
      out(next === ':' ? 'j-key' : 'j-str', token);
    } else if (token === 'true' || token === 'false' || token === 'null') {
      out('j-lit', token);
    } else {
      out('j-num', token);
    }
  }
  pre.append(frag);
}

export {
  parseStructuredJSON,
  renderJSONInto,
};
