import { describe, expect, it } from 'vitest';
import { liftPrerenderedMarks } from './prerendered';

function prerenderedRoot(): HTMLElement {
  const root = document.createElement('div');
  root.setAttribute('inert', '');
  root.setAttribute('aria-busy', 'true');
  root.dataset.prerendered = 'login';
  root.innerHTML = '<main><form><input name="username"><button type="submit">Sign In</button></form></main>';
  document.body.append(root);
  return root;
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a pre-rendered screen', () => {
  it('stays inert and busy while its markup is on the page, whatever else changes', async () => {
    const root = prerenderedRoot();
    liftPrerenderedMarks(root);
    root.append(document.createElement('div'));
    await settled();
    expect(root.hasAttribute('inert')).toBe(true);
    expect(root.getAttribute('aria-busy')).toBe('true');
  });

  it('is usable as soon as the live screen has replaced the markup', async () => {
    const root = prerenderedRoot();
    liftPrerenderedMarks(root);
    root.replaceChildren(document.createElement('main'));
    await settled();
    expect(root.hasAttribute('inert')).toBe(false);
    expect(root.hasAttribute('aria-busy')).toBe(false);
    expect(root.dataset.prerendered).toBeUndefined();
  });
});
