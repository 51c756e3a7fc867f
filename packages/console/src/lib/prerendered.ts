/*
 * A pre-rendered first screen (src/prerender.tsx) is on the page before the console's code, marked
 * `inert` and `aria-busy`: it shows at once but takes no input (a click, a keystroke, a form
 * submitted before the console runs would be lost or sent nowhere). main.tsx lifts both marks when
 * the live screen's first commit has replaced the markup; the live screen is usable from its first
 * paint.
 */

/** Runs `then` once every node now under `root` has left the page. */
function whenReplaced(root: HTMLElement, then: () => void): void {
  const prerendered = [...root.childNodes];
  // The commit that removes the markup also inserts the live screen, in one task: the observer's
  // callback runs right after it, before any input is handled or the page paints.
  const observer = new MutationObserver(() => {
    if (prerendered.some((node) => node.isConnected)) return;
    observer.disconnect();
    then();
  });
  observer.observe(root, { childList: true });
}

/** Makes the page usable once the live screen has replaced the pre-rendered one in `root`. */
export function liftPrerenderedMarks(root: HTMLElement): void {
  whenReplaced(root, () => {
    root.removeAttribute('inert');
    root.removeAttribute('aria-busy');
    delete root.dataset.prerendered;
  });
}
