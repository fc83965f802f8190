// The panel's only script: copy buttons and confirmations. Every action works without it.
document.addEventListener('click', (event) => {
  const button = event.target.closest('button[data-copy]');
  if (!button) return;
  const field = document.getElementById(button.dataset.copy);
  if (!field) return;
  field.select();
  const done = () => {
    const label = button.textContent;
    button.textContent = button.dataset.done || label;
    setTimeout(() => {
      button.textContent = label;
    }, 2000);
  };
  if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, () => document.execCommand('copy') && done());
  else if (document.execCommand('copy')) done();
});
document.addEventListener('submit', (event) => {
  const message = event.target.dataset?.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});
