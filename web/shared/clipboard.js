/*
 * CoreDataBrowser — copying text, and what "Copy as JSON" copies (both views).
 *
 *   copyText(text)         copies text (Clipboard API, or a selected textarea on plain http); resolves to success
 *   copyFrom(button)       a copy button's click: copies its data-copy and says whether it worked (data-copied,
 *                          .is-copied for a moment)
 *   recordJSON(record)     what "Copy as JSON" / "Copy row as JSON" copy in both views: {id, entity, attrs}, indented
 */

/** Copies text: the Clipboard API where the page is a secure context, else a selected textarea (plain http
 *  on a LAN address is not a secure context, and the Clipboard API is missing there). Resolves to whether it
 *  worked. */
async function copyText(text) {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch (_) {
    // fall through to the textarea
  }
  const area = document.createElement('textarea');
  area.className = 'visually-hidden';
  area.style.position = 'fixed';
  area.style.opacity = '0';
  area.value = text;
  document.body.append(area);
  area.select();
  let copied = false;
  try {
    copied = document.execCommand('copy');
  } catch (_) {
    copied = false;
  }
  area.remove();
  return copied;
}

async function copyFrom(button) {
  const copied = await copyText(button.dataset.copy || '');
  button.dataset.copied = copied ? 'true' : 'false';
  button.classList.toggle('is-copied', copied);
  window.setTimeout(() => button.classList.remove('is-copied'), 1200);
  return copied;
}

function recordJSON(record) {
  return JSON.stringify({ id: record.id, entity: record.entity, attrs: record.attrs }, null, 2);
}

export {
  copyText,
  copyFrom,
  recordJSON,
};
