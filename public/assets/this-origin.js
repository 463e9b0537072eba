// The commands on this page name the service they are served by: every [data-origin] shows this page's origin.
for (const element of document.querySelectorAll('[data-origin]')) element.textContent = location.origin;
