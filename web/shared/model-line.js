/*
 * CoreDataBrowser — where the model came from (/api/health's `model`), said the same way on every page.
 *
 *   showModelLine(node, model)
 *                          node gets the text, a title, data-source and .is-warning when guessed from the tables
 */

import { setVisibleText, visibleText } from './visible-text.js';

/** Says where the model came from (/api/health's `model`); a model guessed from the tables gets a warning. */
function showModelLine(node, model) {
  if (!model || typeof model.source !== 'string') {
    node.hidden = true;
    return;
  }
  const name = typeof model.name === 'string' && model.name ? ` “${model.name}”` : '';
  const texts = {
    file: `Model: ${model.path || 'the named file'}${name}`,
    'store-cache': `Model: the store's cached model${name}`,
    inferred: '⚠ Model guessed from the tables: names and types may differ from the app’s',
    live: 'Model: the app’s own',
  };
  setVisibleText(node, texts[model.source] || `Model: ${model.source}`);
  node.title = model.source === 'inferred'
    ? 'No model file was given and the store holds no cached model, so entities and attributes were read from the table layout. Pass --model to use the app’s .xcdatamodeld.'
    : visibleText(node.textContent);
  node.dataset.source = model.source;
  node.classList.toggle('is-warning', model.source === 'inferred');
  node.hidden = false;
}

export {
  showModelLine,
};
