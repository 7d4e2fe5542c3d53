/*
 * CoreDataBrowser — invisible and direction-changing characters, shown as markers wherever user text is written.
 *
 *   INVISIBLE_CHARACTERS   Map code point -> Unicode name of every character that is shown as a marker
 *   setVisibleText(node, text)
 *                          node's children become text, with each invisible character replaced by
 *                          <span class="cdb-invisible" data-code="202E" title="RIGHT-TO-LEFT OVERRIDE (U+202E)">
 *                          ⟨U+202E⟩</span> (so "Invoice \u202Efdp.exe" cannot pass for "Invoice exe.pdf")
 *   visibleText(text)      the same as a plain string, for title attributes, <option>s and document.title
 *
 * Everything is built with DOM nodes and textContent; nothing is ever parsed as HTML. Copying a value always
 * copies the original string, never this rendering.
 */

const C0_NAMES = [
  'NULL', 'START OF HEADING', 'START OF TEXT', 'END OF TEXT', 'END OF TRANSMISSION', 'ENQUIRY', 'ACKNOWLEDGE',
  'BELL', 'BACKSPACE', null /* TAB: shown as whitespace */, null /* LINE FEED */, 'LINE TABULATION', 'FORM FEED',
  null /* CARRIAGE RETURN: part of a line break */, 'SHIFT OUT', 'SHIFT IN', 'DATA LINK ESCAPE',
  'DEVICE CONTROL ONE', 'DEVICE CONTROL TWO', 'DEVICE CONTROL THREE', 'DEVICE CONTROL FOUR',
  'NEGATIVE ACKNOWLEDGE', 'SYNCHRONOUS IDLE', 'END OF TRANSMISSION BLOCK', 'CANCEL', 'END OF MEDIUM',
  'SUBSTITUTE', 'ESCAPE', 'INFORMATION SEPARATOR FOUR', 'INFORMATION SEPARATOR THREE',
  'INFORMATION SEPARATOR TWO', 'INFORMATION SEPARATOR ONE',
];
/** C1 controls have no formal names; these are their ISO 6429 names (Unicode's name aliases). */
const C1_NAMES = [
  'PADDING CHARACTER', 'HIGH OCTET PRESET', 'BREAK PERMITTED HERE', 'NO BREAK HERE', 'INDEX', 'NEXT LINE',
  'START OF SELECTED AREA', 'END OF SELECTED AREA', 'CHARACTER TABULATION SET',
  'CHARACTER TABULATION WITH JUSTIFICATION', 'LINE TABULATION SET', 'PARTIAL LINE FORWARD',
  'PARTIAL LINE BACKWARD', 'REVERSE LINE FEED', 'SINGLE SHIFT TWO', 'SINGLE SHIFT THREE', 'DEVICE CONTROL STRING',
  'PRIVATE USE ONE', 'PRIVATE USE TWO', 'SET TRANSMIT STATE', 'CANCEL CHARACTER', 'MESSAGE WAITING',
  'START OF GUARDED AREA', 'END OF GUARDED AREA', 'START OF STRING', 'SINGLE GRAPHIC CHARACTER INTRODUCER',
  'SINGLE CHARACTER INTRODUCER', 'CONTROL SEQUENCE INTRODUCER', 'STRING TERMINATOR', 'OPERATING SYSTEM COMMAND',
  'PRIVACY MESSAGE', 'APPLICATION PROGRAM COMMAND',
];
const FORMAT_NAMES = [
  // Bidirectional controls: they reorder the text around them.
  [0x202A, 'LEFT-TO-RIGHT EMBEDDING'], [0x202B, 'RIGHT-TO-LEFT EMBEDDING'], [0x202C, 'POP DIRECTIONAL FORMATTING'],
  [0x202D, 'LEFT-TO-RIGHT OVERRIDE'], [0x202E, 'RIGHT-TO-LEFT OVERRIDE'],
  [0x2066, 'LEFT-TO-RIGHT ISOLATE'], [0x2067, 'RIGHT-TO-LEFT ISOLATE'], [0x2068, 'FIRST STRONG ISOLATE'],
  [0x2069, 'POP DIRECTIONAL ISOLATE'],
  [0x200E, 'LEFT-TO-RIGHT MARK'], [0x200F, 'RIGHT-TO-LEFT MARK'], [0x061C, 'ARABIC LETTER MARK'],
  // Zero-width characters: two strings that look equal may differ by them.
  [0x200B, 'ZERO WIDTH SPACE'], [0x200C, 'ZERO WIDTH NON-JOINER'], [0x200D, 'ZERO WIDTH JOINER'],
  [0x2060, 'WORD JOINER'], [0xFEFF, 'ZERO WIDTH NO-BREAK SPACE'],
];

/** Every character shown as a marker, with its name: the one list both views use. */
const INVISIBLE_CHARACTERS = new Map([
  ...C0_NAMES.map((name, code) => [code, name]).filter(([, name]) => name),
  [0x7F, 'DELETE'],
  ...C1_NAMES.map((name, index) => [0x80 + index, name]),
  ...FORMAT_NAMES,
]);

const hex = (code) => code.toString(16).toUpperCase().padStart(4, '0');
/** One character class of every code point above, built from the map so the two cannot disagree. */
const INVISIBLE_PATTERN = new RegExp(`[${[...INVISIBLE_CHARACTERS.keys()].map((c) => `\\u${hex(c)}`).join('')}]`, 'g');
const INVISIBLE_TEST = new RegExp(INVISIBLE_PATTERN.source);

const markerText = (code) => `⟨U+${hex(code)}⟩`;

/** The marker element standing for one invisible character. */
function invisibleMarker(char) {
  const code = char.codePointAt(0);
  const span = document.createElement('span');
  span.className = 'cdb-invisible';
  span.dataset.code = hex(code);
  span.title = `${INVISIBLE_CHARACTERS.get(code) || 'INVISIBLE CHARACTER'} (U+${hex(code)})`;
  span.textContent = markerText(code);
  return span;
}

/** Replaces node's children with text, each invisible character shown as a marker. Returns node. */
function setVisibleText(node, text) {
  const string = text === undefined || text === null ? '' : String(text);
  if (!INVISIBLE_TEST.test(string)) {
    node.textContent = string; // the common case: one text node, as before
    if (node.classList.contains('has-invisible')) node.classList.remove('has-invisible');
    return node;
  }
  const parts = [];
  let last = 0;
  INVISIBLE_PATTERN.lastIndex = 0;
  for (let match = INVISIBLE_PATTERN.exec(string); match; match = INVISIBLE_PATTERN.exec(string)) {
    if (match.index > last) parts.push(string.slice(last, match.index));
    parts.push(invisibleMarker(match[0]));
    last = match.index + 1;
  }
  if (last < string.length) parts.push(string.slice(last));
  node.replaceChildren(...parts);
  node.classList.add('has-invisible');
  return node;
}

/** The text with each invisible character written as ⟨U+XXXX⟩: for places that hold plain text only. */
function visibleText(text) {
  const string = text === undefined || text === null ? '' : String(text);
  return INVISIBLE_TEST.test(string) ? string.replace(INVISIBLE_PATTERN, (c) => markerText(c.codePointAt(0))) : string;
}

export {
  INVISIBLE_CHARACTERS,
  setVisibleText,
  visibleText,
};
