/*
 * CoreDataBrowser — predicate trees for both views: the text of a tree in
 * the server's spelling, the key paths an entity offers, the builder's model and its conversion to and from the
 * JSON form (docs/API.md, "Predicates"), and the recent predicates of each entity. No DOM: predicate.js draws.
 *
 * A native ES module: what it exports is listed here.
 *
 *   quote(text), keyPathText(path), formatTree(tree, typeOf)
 *                          predicate text as the server's canonical text writes it: strings with \" \\ \n \r \t
 *                          and \u{…} for controls and invisible characters, names that are reserved words with #
 *   setEntities(fn), entityNamed(name), fieldsOf(entity), typeResolver(entity), opsFor(type), OP_LABELS
 *                          the model (fn() → /api/entities), the builder's key paths and operators
 *   newGroup(type), newRow(field), groupNode(group, fields), modelOf(tree, fields), Unbuildable
 *                          the builder's model ⇄ the JSON form (groupNode gives {error} for an unfinished row;
 *                          modelOf throws Unbuildable for what the builder cannot show)
 *   zone()                 the "Dates" choice the builder's date inputs are typed in
 *   RECENT_KEY, recentOf(store, entity), remember(store, entity, text)
 *                          localStorage "cdb.recentPredicates" = {"<store>": {"<Entity>": ["text", …]}} (10 a list)
 */

import { readDateZone } from '../../shared/dates.js';
import { readStoredJSON, writeStoredJSON } from '../../shared/storage.js';

const RECENT_KEY = 'cdb.recentPredicates';
const RECENT_MAX = 10;

// -------------------------------------------------------------------------------------------
// Text: the same spelling as the server's canonical text (PredicateText.swift)
// -------------------------------------------------------------------------------------------

const RESERVED = new Set(['AND', 'OR', 'IN', 'NOT', 'ALL', 'ANY', 'SOME', 'NONE', 'LIKE', 'CASEINSENSITIVE', 'CI',
  'MATCHES', 'CONTAINS', 'BEGINSWITH', 'ENDSWITH', 'BETWEEN', 'NULL', 'NIL', 'SELF', 'TRUE', 'YES', 'FALSE', 'NO',
  'FIRST', 'LAST', 'SIZE', 'ANYKEY', 'SUBQUERY', 'FETCH', 'CAST', 'TRUEPREDICATE', 'FALSEPREDICATE',
  'UTI-CONFORMS-TO', 'UTI-EQUALS']);
const IDENTIFIER = /^[\p{Alphabetic}_$][\p{Alphabetic}\p{N}_$]*$/u;
const INTEGER_TYPES = new Set(['Integer 16', 'Integer 32', 'Integer 64']);
const NUMBER_TYPES = new Set([...INTEGER_TYPES, 'Double', 'Float', 'Decimal']);
const OPAQUE_TYPES = new Set(['Binary', 'Transformable', 'Undefined', 'ObjectID']);
const NUMERAL = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A double-quoted literal: `\"`, `\\`, `\n`, `\r`, `\t`, and `\u{…}` for controls and invisible characters. */
function quote(text) {
  let out = '"';
  for (const char of String(text)) {
    const code = char.codePointAt(0);
    if (char === '"') out += '\\"';
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7F || (code >= 0x80 && code <= 0x9F) || (code >= 0x200B && code <= 0x200F)
      || (code >= 0x202A && code <= 0x202E) || (code >= 0x2066 && code <= 0x2069) || code === 0xFEFF) {
      out += `\\u{${code.toString(16).toUpperCase()}}`;
    } else out += char;
  }
  return `${out}"`;
}

/** One key path: each name as it is when it reads back as that name, else with `#` (`#in`, `#first`). */
function keyPathText(path) {
  return String(path).split('.').map((part) => (IDENTIFIER.test(part) && !RESERVED.has(part.toUpperCase()) ? part : `#${part}`)).join('.');
}

function literal(value, type) {
  if (value === null || value === undefined) return 'NIL';
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (type === 'Date') return `CAST(${typeof value === 'number' ? String(value) : quote(value)}, "NSDate")`;
  if (typeof value === 'number') return String(value);
  if (NUMBER_TYPES.has(type) && NUMERAL.test(value)) return String(value);
  return quote(value);
}

function comparisonText(node, typeOf, prefix) {
  const type = typeOf(prefix ? `${prefix}.${node.keyPath}` : node.keyPath, node);
  const head = `${keyPathText(node.keyPath)} ${node.op}${node.options ? `[${node.options}]` : ''} `;
  if ('object' in node) return head + quote(node.object);
  if (Array.isArray(node.values)) return `${head}{${node.values.map((v) => literal(v, type)).join(', ')}}`;
  return head + literal(node.value, type);
}

/**
 * A tree (the JSON form) as predicate text. typeOf(keyPath) gives an attribute's type, so numbers sent as
 * strings (big integers, Decimals) are written as numerals and dates as CAST("…", "NSDate").
 */
function formatTree(tree, typeOf = () => '') {
  const operand = (node) => {
    const group = node.all || node.any;
    return Array.isArray(group) && group.length > 1 ? `(${text(node)})` : text(node);
  };
  const text = (node) => {
    if (Array.isArray(node.all)) return node.all.length ? node.all.map(operand).join(' AND ') : 'TRUEPREDICATE';
    if (Array.isArray(node.any)) return node.any.length ? node.any.map(operand).join(' OR ') : 'FALSEPREDICATE';
    if (node.not) return `NOT ${operand(node.not)}`;
    if (node.quantifier) return `${node.quantifier} ${keyPathText(node.relationship)}.${comparisonText(node.condition, typeOf, node.relationship)}`;
    if (node.count) return `${keyPathText(node.count)}.@count ${node.op} ${node.value}`;
    return comparisonText(node, typeOf, '');
  };
  return text(tree);
}

// -------------------------------------------------------------------------------------------
// The model: which key paths an entity offers
// -------------------------------------------------------------------------------------------

let entitiesOf = () => [];
const setEntities = (fn) => { entitiesOf = fn; };
const entityNamed = (name) => entitiesOf().find((e) => e.name === name) || null;

/**
 * The key paths of an entity's builder: its attributes; per to-one relationship the record itself and its
 * destination's attributes (one level); per to-many relationship its @count and its destination's attributes
 * under ANY / ALL / NONE. Each: {key, label, group, type, path, relationship?, destination?, quantified?}.
 */
function fieldsOf(entityName) {
  const entity = entityNamed(entityName);
  if (!entity) return [];
  const fields = entity.attributes.map((a) => ({ key: a.name, label: a.name, group: 'Attributes', type: a.type, path: a.name }));
  for (const rel of entity.relationships || []) {
    const destination = entityNamed(rel.destination);
    const attrs = destination ? destination.attributes : [];
    const group = `${rel.name} → ${rel.destination}${rel.toMany ? ' (to-many)' : ''}`;
    if (rel.toMany) {
      fields.push({ key: `${rel.name}.@count`, label: `${rel.name}.@count`, group, type: 'count', relationship: rel.name });
      for (const a of attrs) {
        fields.push({ key: `${rel.name}.${a.name}`, label: `${rel.name}.${a.name}`, group, type: a.type, path: a.name, relationship: rel.name, quantified: true });
      }
    } else {
      fields.push({ key: rel.name, label: `${rel.name} (a record)`, group, type: 'record', path: rel.name, destination: rel.destination });
      for (const a of attrs) fields.push({ key: `${rel.name}.${a.name}`, label: `${rel.name}.${a.name}`, group, type: a.type, path: `${rel.name}.${a.name}` });
    }
  }
  return fields;
}

/** The type of a key path of the entity (`author.name` → String), for formatTree. */
function typeResolver(entityName) {
  const types = new Map(fieldsOf(entityName).filter((f) => f.path).map((f) => [f.quantified ? `${f.relationship}.${f.path}` : f.path, f.type]));
  return (path) => types.get(path) || '';
}

const OPS = {
  string: ['==', '!=', 'CONTAINS', 'BEGINSWITH', 'ENDSWITH', 'LIKE', 'IN', 'nil', 'notnil'],
  ordered: ['==', '!=', '<', '<=', '>', '>=', 'BETWEEN', 'IN', 'nil', 'notnil'],
  boolean: ['==', '!=', 'nil', 'notnil'],
  equatable: ['==', '!=', 'IN', 'nil', 'notnil'],
  opaque: ['nil', 'notnil'],
  record: ['==', '!=', 'nil', 'notnil'],
  count: ['==', '!=', '<', '<=', '>', '>='],
};
const OP_LABELS = { nil: '== nil', notnil: '!= nil', IN: 'IN {…}', BETWEEN: 'BETWEEN {…}' };

function opsFor(type) {
  if (type === 'String') return OPS.string;
  if (NUMBER_TYPES.has(type) || type === 'Date') return OPS.ordered;
  if (type === 'Boolean') return OPS.boolean;
  if (type === 'UUID' || type === 'URI') return OPS.equatable;
  if (type === 'record') return OPS.record;
  if (type === 'count') return OPS.count;
  return OPS.opaque;
}

// -------------------------------------------------------------------------------------------
// Recent predicates (per store and entity)
// -------------------------------------------------------------------------------------------

function readRecentAll() {
  const stored = readStoredJSON(RECENT_KEY);
  return stored && typeof stored === 'object' && !Array.isArray(stored) ? stored : {};
}

function recentOf(store, entity) {
  const list = (readRecentAll()[store] || {})[entity];
  return Array.isArray(list) ? list.filter((t) => typeof t === 'string' && t) : [];
}

function remember(store, entity, text) {
  if (!text) return;
  const all = readRecentAll();
  const byEntity = all[store] && typeof all[store] === 'object' ? all[store] : {};
  byEntity[entity] = [text, ...recentOf(store, entity).filter((t) => t !== text)].slice(0, RECENT_MAX);
  all[store] = byEntity;
  writeStoredJSON(RECENT_KEY, all); // refused: the list is forgotten, the filter still applies
}

// -------------------------------------------------------------------------------------------
// Builder model <-> tree
// -------------------------------------------------------------------------------------------

const newGroup = (type = 'all') => ({ kind: 'group', type, children: [] });
const newRow = (field) => ({ kind: 'row', field: field ? field.key : '', quantifier: 'ANY', op: field ? opsFor(field.type)[0] : '==',
  options: '', value: '', values: [''], low: '', high: '', object: null });

/** A date input's text (datetime-local) in the chosen zone, from an ISO instant, and back. */
const zone = () => readDateZone();
function isoToInput(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const shifted = zone() === 'utc' ? date : new Date(date.getTime() - date.getTimezoneOffset() * 60000);
  const text = shifted.toISOString().replace('Z', '');
  return text.endsWith('.000') ? text.slice(0, -4) : text;
}
function inputToISO(text) {
  if (!text) return null;
  const date = new Date(zone() === 'utc' ? `${text}Z` : text);
  return Number.isNaN(date.getTime()) ? null : date.toISOString().replace('.000Z', 'Z');
}

/** An input's text as the tree's value for the type; undefined when it is not one. */
function valueOf(text, type) {
  if (type === 'Boolean') return text === 'true' ? true : text === 'false' ? false : undefined;
  if (type === 'Date') return inputToISO(text) ?? undefined;
  if (type === 'count') return /^\d+$/.test(String(text).trim()) ? Number(text) : undefined;
  if (NUMBER_TYPES.has(type)) {
    const t = String(text).trim();
    if (!NUMERAL.test(t)) return undefined;
    if (INTEGER_TYPES.has(type) && !/^-?\d+$/.test(t)) return undefined;
    const n = Number(t);
    return type === 'Decimal' || (INTEGER_TYPES.has(type) && !Number.isSafeInteger(n)) ? t : n;
  }
  return String(text);
}

/** The tree value shown in an input of the type. */
function inputOf(value, type) {
  if (value === null || value === undefined) return '';
  if (type === 'Date') return isoToInput(value);
  return String(value);
}

/** A row as a node of the JSON form, or {error} saying what is missing. */
function rowNode(row, fields) {
  const field = fields.find((f) => f.key === row.field);
  if (!field) return { error: 'choose a key path' };
  const type = field.type;
  const wrap = (comparison) => (field.quantified
    ? { quantifier: row.quantifier, relationship: field.relationship, condition: comparison }
    : comparison);
  const keyPath = field.quantified ? field.path : field.path;
  if (row.op === 'nil' || row.op === 'notnil') return wrap({ keyPath, op: row.op === 'nil' ? '==' : '!=', value: null });
  if (type === 'count') {
    const value = valueOf(row.value, 'count');
    return value === undefined ? { error: `${field.label} needs a whole number` } : { count: field.relationship, op: row.op, value };
  }
  if (type === 'record') {
    return row.object ? { keyPath, op: row.op, object: row.object.id } : { error: `choose a ${field.destination} record` };
  }
  const node = { keyPath, op: row.op };
  if (type === 'String' && row.options) node.options = row.options;
  const need = type === 'Date' ? 'a date' : NUMBER_TYPES.has(type) ? (INTEGER_TYPES.has(type) ? 'a whole number' : 'a number') : 'a value';
  if (row.op === 'IN') {
    const values = row.values.map((t) => valueOf(t, type));
    if (!values.length || values.some((v) => v === undefined)) return { error: `${field.label} IN needs ${need} in every entry` };
    node.values = values;
  } else if (row.op === 'BETWEEN') {
    const low = valueOf(row.low, type);
    const high = valueOf(row.high, type);
    if (low === undefined || high === undefined) return { error: `${field.label} BETWEEN needs ${need} at both ends` };
    node.values = [low, high];
  } else {
    const value = valueOf(row.value, type);
    if (value === undefined) return { error: `${field.label} ${row.op} needs ${need}` };
    node.value = value;
  }
  return wrap(node);
}

/** The builder's tree, or {error}. An empty root is no predicate (null). */
function groupNode(group, fields) {
  const parts = [];
  for (const child of group.children) {
    const node = child.kind === 'group' ? groupNode(child, fields) : rowNode(child, fields);
    if (node && node.error) return node;
    if (node) parts.push(node);
  }
  if (!parts.length) return null;
  if (group.type === 'none') return { not: parts.length === 1 ? parts[0] : { any: parts } };
  if (parts.length === 1) return parts[0];
  return group.type === 'any' ? { any: parts } : { all: parts };
}

class Unbuildable extends Error {}

/** The builder model of a tree (the /predicate answer's), or throws Unbuildable saying why. */
function modelOf(tree, fields) {
  const toGroup = (node) => {
    if (Array.isArray(node.all)) return { ...newGroup('all'), children: node.all.map(toChild) };
    if (Array.isArray(node.any)) return { ...newGroup('any'), children: node.any.map(toChild) };
    if (node.not) {
      const inner = node.not;
      if (Array.isArray(inner.any)) return { ...newGroup('none'), children: inner.any.map(toChild) };
      return { ...newGroup('none'), children: [toChild(inner)] };
    }
    return { ...newGroup('all'), children: [toChild(node)] };
  };
  const toChild = (node) => (node.all || node.any || node.not ? toGroup(node) : toRow(node));
  const toRow = (node) => {
    let key;
    let comparison = node;
    const row = newRow(null);
    if (node.quantifier) {
      key = `${node.relationship}.${node.condition.keyPath}`;
      comparison = node.condition;
      row.quantifier = node.quantifier;
    } else if (node.count) {
      key = `${node.count}.@count`;
    } else {
      key = node.keyPath;
    }
    const field = fields.find((f) => f.key === key && Boolean(f.quantified) === Boolean(node.quantifier));
    if (!field) throw new Unbuildable(`The builder offers key paths one relationship deep; “${key}” is kept as text.`);
    // Two attributes compared and a to-one IN record IDs have no builder row: kept as text, never half-shown.
    if ('rightKeyPath' in comparison || 'objects' in comparison) throw new Unbuildable(`The builder has no row for this ${key} condition; it is kept as text.`);
    row.field = field.key;
    row.op = comparison.op;
    if ('value' in comparison && comparison.value === null) row.op = comparison.op === '==' ? 'nil' : 'notnil';
    else if ('object' in comparison) row.object = { id: comparison.object, label: '' };
    else if (Array.isArray(comparison.values)) {
      if (comparison.op === 'BETWEEN') {
        row.low = inputOf(comparison.values[0], field.type);
        row.high = inputOf(comparison.values[1], field.type);
      } else row.values = comparison.values.map((v) => inputOf(v, field.type));
    } else row.value = inputOf(comparison.value, field.type);
    row.options = comparison.options || '';
    if (!opsFor(field.type).includes(row.op)) throw new Unbuildable(`The builder has no ${comparison.op} for ${key}.`);
    return row;
  };
  if (!tree) return newGroup('all');
  return toGroup(tree);
}

export {
  quote,
  keyPathText,
  formatTree,
  setEntities,
  entityNamed,
  fieldsOf,
  typeResolver,
  opsFor,
  OP_LABELS,
  INTEGER_TYPES,
  NUMBER_TYPES,
  OPAQUE_TYPES,
  newGroup,
  newRow,
  groupNode,
  modelOf,
  Unbuildable,
  zone,
  RECENT_KEY,
  recentOf,
  remember,
};
