// Pages that a mailed link opens, and the request for a reset link: they need no session.
import { api, ApiError } from './api.js';
import { busy, clearErrors, el, showAlert, showErrors } from './ui.js';

const token = new URLSearchParams(location.search).get('token') || '';
const notice = document.getElementById('notice');
const loginLink = () => el('a', { href: '/login', class: 'btn btn-primary', id: 'go-login' }, 'Log in');

/** Sends the page's token; a refused one says how to get a new link. */
async function redeem(path, done) {
  try {
    const answer = await api('POST', path, { token }, { expectUnauthenticated: true });
    done(answer);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    showAlert(notice, 'error', error.code === 'token_invalid'
      ? 'This link is not valid any more: it was used already, has expired or a newer one replaced it.'
      : error.message);
  }
}

function forgotPassword(form) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const email = String(new FormData(form).get('email') || '').trim();
    const sent = await busy(form.querySelector('button'), 'Sending…', async () => {
      try {
        await api('POST', '/api/v1/auth/password-reset', { email }, { expectUnauthenticated: true });
        return true;
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        showErrors(form, error);
        return false;
      }
    });
    if (sent) {
      form.hidden = true;
      showAlert(notice, 'success', 'If ' + email + ' belongs to an account, a link to choose a new password is on its way. It works once, for 30 minutes.');
    }
  });
}

function resetPassword(form) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const password = String(new FormData(form).get('password') || '');
    await busy(form.querySelector('button'), 'Saving…', async () => {
      try {
        await api('POST', '/api/v1/auth/password-reset/confirm', { token, password }, { expectUnauthenticated: true });
        form.hidden = true;
        showAlert(notice, 'success', 'Your password is set. Log in with it.', loginLink());
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (error.code === 'token_invalid') {
          form.hidden = true;
          showAlert(notice, 'error', 'This link is not valid any more: it was used already, has expired or a newer one replaced it.',
            el('a', { href: '/forgot-password', class: 'btn btn-secondary' }, 'Ask for a new link'));
        } else {
          showErrors(form, error);
        }
      }
    });
  });
}

const forgot = document.getElementById('forgot-form');
const reset = document.getElementById('reset-form');
if (forgot) {
  forgotPassword(forgot);
} else if (reset) {
  resetPassword(reset);
} else if (location.pathname.endsWith('/verify-email')) {
  redeem('/api/v1/auth/verify-email', (answer) =>
    showAlert(notice, 'success', answer.email + ' is verified. Thank you!',
      el('a', { href: '/dashboard', class: 'btn btn-primary', id: 'go-dashboard' }, 'Go to the dashboard')));
} else {
  redeem('/api/v1/auth/email-change/confirm', (answer) =>
    showAlert(notice, 'success', 'Your account\'s email address is now ' + answer.email + '. Log in with it from now on.', loginLink()));
}
