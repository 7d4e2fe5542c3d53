/*
 * CoreDataBrowser — the browser's localStorage, as every view uses it.
 *
 * Storage may be unavailable (disabled, private mode, over quota): a read then finds nothing and a write is lost,
 * so a preference lasts for the page only. No caller needs to care, which is why the try/catch lives here, once.
 *
 *   readStored(key)              the stored string, or null
 *   writeStored(key, value)      stores a string; false when storage refused it
 *   readStoredJSON(key)          the stored value parsed as JSON, or null when missing or malformed
 *   writeStoredJSON(key, value)  stores JSON.stringify(value)
 */

export function readStored(key) {
  try {
    return window.localStorage.getItem(key);
  } catch (_) {
    return null; // storage disabled: behave as if nothing was saved
  }
}

export function writeStored(key, value) {
  try {
    window.localStorage.setItem(key, value);
    return true;
  } catch (_) {
    return false; // quota exceeded or storage disabled: preferences are a convenience only
  }
}

export function readStoredJSON(key) {
  const raw = readStored(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw);
  } catch (_) {
    return null;
  }
}

export function writeStoredJSON(key, value) {
  return writeStored(key, JSON.stringify(value));
}
