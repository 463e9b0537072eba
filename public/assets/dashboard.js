// The dashboard works without this script; with it, a new key gets a Copy button and destructive
// buttons ask first.

for (const button of document.querySelectorAll('[data-copy]')) {
  const field = document.getElementById(button.dataset.copy);
  const status = document.querySelector('.copy-status');
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(field.value);
      status.textContent = 'Copied to the clipboard.';
    } catch {
      field.select();
      status.textContent = 'Selected: press Ctrl+C (⌘C on a Mac) to copy.';
    }
  });
}

for (const button of document.querySelectorAll('[data-confirm]')) {
  button.form.addEventListener('submit', (event) => {
    if (event.submitter === button && !window.confirm(button.dataset.confirm)) event.preventDefault();
  });
}
