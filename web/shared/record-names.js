/*
 * CoreDataBrowser — names of records: the attributes the user picked per entity and store ("Name by"), and the
 * "related to" chip of a list restricted to what one record reaches (both views).
 *
 *   DISPLAY_KEY            localStorage "cdb.displayAttributes" = {"<store>": {"<Entity>": "attr" | ["a", "b"]}}
 *   displayChoices(store, entity), setDisplayChoices(store, entity, names), displayName(attrs, names, fallback)
 *                          one or several String attributes whose non-empty values, joined by a space, name a
 *                          record (else the server's summary)
 *   showScope(chip, textNode, list, storeKey)
 *                          the chip of a list scoped by `list.relatedTo` and `list.via` (hidden without one), its
 *                          text "Related to Émile Zola (Author) through books" — the record's name
 *                          once /api/object answers (fetched once per record), "Related to Author p2 through
 *                          books" until then
 */

import { apiPath, entityFromId, getJSON, shortId } from './api.js';
import { readStoredJSON, writeStoredJSON } from './storage.js';
import { setVisibleText } from './visible-text.js';

const DISPLAY_KEY = 'cdb.displayAttributes';

function readDisplayChoices() {
  const stored = readStoredJSON(DISPLAY_KEY);
  return stored && typeof stored === 'object' ? stored : {};
}

/** The attributes picked to name `entity`'s records in this store (one or several), or [] for the server's
 *  choice. Stored as a string (one attribute, the first format) or an array (several). */
function displayChoices(storeKey, entity) {
  const forStore = readDisplayChoices()[storeKey];
  const choice = forStore && typeof forStore === 'object' ? forStore[entity] : undefined;
  if (typeof choice === 'string') return choice ? [choice] : [];
  return Array.isArray(choice) ? choice.filter((name) => typeof name === 'string' && name) : [];
}

function setDisplayChoices(storeKey, entity, names) {
  const choices = readDisplayChoices();
  const forStore = choices[storeKey] && typeof choices[storeKey] === 'object' ? choices[storeKey] : {};
  const kept = names.filter(Boolean);
  if (kept.length === 0) delete forStore[entity];
  else forStore[entity] = kept.length === 1 ? kept[0] : kept;
  choices[storeKey] = forStore;
  writeStoredJSON(DISPLAY_KEY, choices); // refused storage: the choice lasts for this page
}

/** A record's name from the picked attributes' values (non-empty ones, joined by a space), else `fallback`. */
function displayName(attrs, names, fallback) {
  const values = names.map((name) => (attrs && typeof attrs[name] === 'string' ? attrs[name].trim() : '')).filter(Boolean);
  return values.length ? values.join(' ') : fallback;
}

// ---------------------------------------------------------------------------------------------
// The "related to" chip of a list restricted to what one record reaches (both views)
// ---------------------------------------------------------------------------------------------

/** relatedTo id -> Promise of its /api/object answer (null when it failed: asked again next time). */
const scopeRecords = new Map();

function showScopeText(node, relatedTo, via, storeKey) {
  const label = (name) => `Related to ${name} through ${via || '?'}`;
  const entity = entityFromId(relatedTo);
  setVisibleText(node, label(entity ? `${entity} ${shortId(relatedTo)}` : relatedTo));
  node.dataset.relatedTo = relatedTo;
  let answer = scopeRecords.get(relatedTo);
  if (!answer) {
    answer = getJSON(apiPath('/api/object', { id: relatedTo })).catch(() => null);
    scopeRecords.set(relatedTo, answer);
  }
  answer.then((record) => {
    if (!record || typeof record !== 'object') {
      scopeRecords.delete(relatedTo);
      return;
    }
    if (node.dataset.relatedTo !== relatedTo) return; // the chip shows another scope by now
    const name = displayName(record.attrs, displayChoices(storeKey, record.entity), record.summary || record.id);
    setVisibleText(node, label(`${name} (${record.entity})`));
  });
}

/** The "related to" chip of a list (`list` its {relatedTo, via}): hidden when the list has no scope, else naming the
 *  record and relationship (the record's name once it is known), its title the record's ID. */
function showScope(chip, textNode, list, storeKey) {
  if (!list.relatedTo) {
    chip.hidden = true;
    return;
  }
  showScopeText(textNode, list.relatedTo, list.via, storeKey);
  chip.title = list.relatedTo;
  chip.hidden = false;
}

export {
  DISPLAY_KEY,
  displayChoices,
  setDisplayChoices,
  displayName,
  showScope,
};
