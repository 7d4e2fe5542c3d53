/*
 * CoreDataBrowser — counts and paging both views share.
 *
 *   formatCount(n)         a count grouped by the browser's locale ("1,000,000")
 *   lastPageOffset(total, limit), steppedOffset(offset, direction, limit, total), pageOffsetOf(text, limit, total)
 *                          the last page's offset; one page forward (+1) or back (-1), kept within the first and
 *                          last pages; the offset a typed page number asks for ("3", "1,204"), clamped to the
 *                          last page, or null when the text is not a page number
 *   showPageSize(select, limit)
 *                          the page-size menu on `limit`, with an option of its own for a size the menu does not
 *                          offer (a URL's limit=30)
 *   wirePageInput(input, paging, go)
 *                          a go-to-page box: Enter calls go(offset) for the typed page (paging() gives {limit,
 *                          total}, or null before the first page); text that is no page number is reported on it
 */

/** A count grouped by the browser's locale (1,000,000). */
function formatCount(n) {
  return Number.isFinite(n) ? n.toLocaleString() : String(n ?? '');
}

function lastPageOffset(total, limit) {
  return total > 0 && limit > 0 ? Math.floor((total - 1) / limit) * limit : 0;
}

/** One page forward or back, never before the first page nor past the last one. */
function steppedOffset(offset, direction, limit, total) {
  return Math.max(0, Math.min(offset + direction * limit, lastPageOffset(total, limit)));
}

/** "3" → the third page's offset; group separators and spaces are ignored ("1,204", "1 204"). */
function pageOffsetOf(text, limit, total) {
  const digits = String(text).replace(/[\s,.’'\u00A0\u202F]/g, '');
  if (!/^\d{1,15}$/.test(digits)) return null;
  const number = Number(digits);
  if (number < 1) return null;
  return Math.min((number - 1) * limit, lastPageOffset(total, limit));
}

function wirePageInput(input, paging, go) {
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    const now = paging();
    const offset = now ? pageOffsetOf(input.value, now.limit, now.total) : null;
    if (offset === null) {
      input.setCustomValidity('Type a page number');
      input.reportValidity();
      return;
    }
    input.setCustomValidity('');
    input.value = '';
    go(offset);
  });
  input.addEventListener('input', () => input.setCustomValidity(''));
}

function showPageSize(select, limit) {
  const text = String(limit);
  if (![...select.options].some((option) => option.value === text)) select.append(new Option(text, text));
  select.value = text;
}

export {
  formatCount,
  lastPageOffset,
  steppedOffset,
  pageOffsetOf,
  showPageSize,
  wirePageInput,
};
