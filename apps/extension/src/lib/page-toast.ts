/**
 * Injected into the page (scripting.executeScript, under activeTab) to confirm a save where the
 * user is looking. Self-contained: it runs in the page, not in the extension. A closed shadow root
 * keeps the page's styles out and the page's scripts from reading it.
 */
export function showPageToast(text: string, tone: 'ok' | 'info' | 'error'): void {
  const id = 'linkwise-save-toast';
  document.getElementById(id)?.remove();
  const host = document.createElement('div');
  host.id = id;
  const root = host.attachShadow({ mode: 'closed' });
  const colors = { ok: '#15803d', info: '#4338ca', error: '#b91c1c' };
  const box = document.createElement('div');
  box.setAttribute('role', 'status');
  box.textContent = text;
  box.style.cssText = [
    'position:fixed',
    'top:16px',
    'right:16px',
    'z-index:2147483647',
    'max-width:min(360px,calc(100vw - 32px))',
    'padding:10px 14px',
    'border-radius:10px',
    'font:500 14px/1.4 system-ui,sans-serif',
    'color:#fff',
    `background:${colors[tone]}`,
    'box-shadow:0 6px 24px rgba(0,0,0,.25)',
  ].join(';');
  root.append(box);
  document.documentElement.append(host);
  setTimeout(() => host.remove(), 3000);
}
