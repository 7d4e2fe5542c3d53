/*
 * CoreDataBrowser — Model view: the diagram as a file (used by model.js).
 *
 * SVG: the drawn diagram in a document of its own, sized to the whole diagram (not the view), every style an
 * attribute, no script, no link back to this server, no focus or highlight marks. PNG: that SVG drawn on a canvas
 * through a data: URL (the page's policy allows data: images, not blob:), twice the size within 60 megapixels.
 */

import { el } from '../../shared/dom.js';
import { SVG, svg } from './drawing.js';

function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = el('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** The diagram as a standalone SVG document: every style is an attribute, no script, no link to this server. */
function svgDocument(viewport, drawn, title) {
  const root = svg('svg', {
    xmlns: SVG, width: Math.ceil(drawn.width), height: Math.ceil(drawn.height),
    viewBox: `0 0 ${Math.ceil(drawn.width)} ${Math.ceil(drawn.height)}`,
  });
  root.append(svg('title', {}, title));
  const content = viewport.cloneNode(true);
  content.removeAttribute('id');
  content.removeAttribute('transform');
  for (const node of content.querySelectorAll('.is-selected, .is-found, .is-near')) node.classList.remove('is-selected', 'is-found', 'is-near');
  // The page's invisible hit lines (wider targets for a click) have nothing to show.
  content.querySelector('.edge-hits')?.remove();
  for (const node of content.querySelectorAll('[tabindex]')) ['tabindex', 'role', 'aria-label'].forEach((name) => node.removeAttribute(name));
  // Links lead to this server's Inspector; in a file they would lead nowhere.
  for (const link of content.querySelectorAll('a')) link.replaceWith(...link.childNodes);
  root.append(content);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(root)}`;
}

function exportSVG(viewport, drawn, title, name) {
  download(new Blob([svgDocument(viewport, drawn, title)], { type: 'image/svg+xml' }), `${name}.svg`);
}

/** `onFailure(message)` when the browser cannot make the image. */
function exportPNG(viewport, drawn, title, name, onFailure) {
  const image = new Image();
  const text = svgDocument(viewport, drawn, title);
  image.onload = () => {
    // Twice the size for sharp text, within what a canvas can hold.
    const scale = Math.max(0.25, Math.min(2, Math.sqrt(60e6 / (drawn.width * drawn.height)), 16000 / Math.max(drawn.width, drawn.height)));
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(drawn.width * scale);
    canvas.height = Math.ceil(drawn.height * scale);
    const context = canvas.getContext('2d');
    context.scale(scale, scale);
    context.drawImage(image, 0, 0, drawn.width, drawn.height);
    canvas.toBlob((blob) => {
      if (blob) download(blob, `${name}.png`);
      else onFailure('The PNG could not be made (the diagram is too large for a canvas); export the SVG');
    }, 'image/png');
  };
  image.onerror = () => onFailure('The PNG could not be made; export the SVG');
  // A data: URL (the page's policy allows images from data:, not from blob:).
  image.src = `data:image/svg+xml;base64,${btoa(unescape(encodeURIComponent(text)))}`;
}

export {
  svgDocument,
  exportSVG,
  exportPNG,
};
