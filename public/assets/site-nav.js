// The site's header for a signed-in visitor: its "Sign in" link becomes "Dashboard". The session cookie is
// HttpOnly; the Worker sets __Host-signed-in=1 beside it, a hint with no secret (src/sessions/sessions.ts).
// Without this script, "Sign in" leads a signed-in visitor to the dashboard anyway.

if (document.cookie.split('; ').includes('__Host-signed-in=1')) {
  for (const link of document.querySelectorAll('.site-header nav a[href="/signin"]')) {
    link.href = '/dashboard';
    link.textContent = 'Dashboard';
  }
}
