/*
 * CoreDataBrowser — a splitter between two panes (both views): drag it, move it with the arrow keys, double-click
 * it for the default size. The view keeps the sizes, their limits and where they are stored; this file only turns
 * the pointer and the keys into a new size.
 *
 *   SPLITTER_KEY_STEP      px an arrow key moves a splitter
 *   wireSplitter(splitter, {axis, sign, start, resize, done, reset, bodyClasses})
 *       axis        "x" (a vertical bar, ArrowLeft/ArrowRight) or "y" (a horizontal bar, ArrowUp/ArrowDown)
 *       sign        1 when moving right or down grows the pane, -1 when it shrinks it
 *       start()     the pane's size when a drag or a key press begins (px)
 *       resize(px)  applies a size asked for (the view clamps it to its minimum and what the window leaves)
 *       done()      after a drag or a key press: the view stores the sizes
 *       reset()     a double-click: the pane's default size (then done())
 *       bodyClasses classes on <body> while dragging (the view's cursor and no text selection)
 *   The splitter gets .is-dragging while dragged.
 */

const SPLITTER_KEY_STEP = 16;

const KEYS = {
  x: { ArrowLeft: -1, ArrowRight: 1 },
  y: { ArrowUp: -1, ArrowDown: 1 },
};

function wireSplitter(splitter, { axis, sign = 1, start, resize, done, reset, bodyClasses = [] }) {
  splitter.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) return;
    event.preventDefault();
    // Captured: the drag follows the pointer over other panes and ends on the splitter, so no click lands elsewhere.
    splitter.setPointerCapture(event.pointerId);
    const origin = axis === 'x' ? event.clientX : event.clientY;
    const startSize = start();
    document.body.classList.add(...bodyClasses);
    splitter.classList.add('is-dragging');
    const move = (e) => resize(startSize + sign * ((axis === 'x' ? e.clientX : e.clientY) - origin));
    const end = () => {
      splitter.removeEventListener('pointermove', move);
      splitter.removeEventListener('pointerup', end);
      splitter.removeEventListener('pointercancel', end);
      document.body.classList.remove(...bodyClasses);
      splitter.classList.remove('is-dragging');
      done();
    };
    splitter.addEventListener('pointermove', move);
    splitter.addEventListener('pointerup', end);
    splitter.addEventListener('pointercancel', end);
  });

  splitter.addEventListener('keydown', (event) => {
    const direction = KEYS[axis][event.key];
    if (!direction) return;
    event.preventDefault();
    resize(start() + sign * direction * SPLITTER_KEY_STEP);
    done();
  });

  splitter.addEventListener('dblclick', () => {
    reset();
    done();
  });
}

export {
  SPLITTER_KEY_STEP,
  wireSplitter,
};
