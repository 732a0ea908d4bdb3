// The members page's "Key policy" card: the organization's rules for keys (the longest lifetime, whether every key
// must name its allowed addresses). Owners and admins change it; every other member sees it read-only.
import { api, ApiError, messageOf } from './api.js';
import { clearErrors, onSubmit, showAlert } from './ui.js';

const $ = (id) => document.getElementById(id);

/** What the policy means, in words. */
function inWords(policy) {
  const lifetime = policy.max_lifetime_days === null
    ? 'Keys may live up to 365 days.'
    : 'Keys may live at most ' + policy.max_lifetime_days + (policy.max_lifetime_days === 1 ? ' day.' : ' days.');
  const addresses = policy.require_allowed_ips
    ? ' Every key must name the addresses it is used from.'
    : ' Keys may be used from any address unless they name their own.';
  return lifetime + addresses + ' A change applies to keys created or changed after it.';
}

/** Wires the card; answers `load()`, which reads the current organization's policy (again after a switch). */
export function keyPolicyCard(shell) {
  const form = $('key-policy-form');
  const show = (policy) => {
    $('key-policy-state').textContent = inWords(policy);
    $('key-policy-lifetime').value = policy.max_lifetime_days === null ? '' : String(policy.max_lifetime_days);
    $('key-policy-require-ips').checked = policy.require_allowed_ips;
  };
  onSubmit(form, $('key-policy-save'), 'Saving…', async () => {
    clearErrors(form);
    $('key-policy-saved').hidden = true;
    const lifetime = $('key-policy-lifetime').value.trim();
    if (lifetime && !/^\d+$/.test(lifetime)) {
      throw new ApiError(400, { errors: [{ field: 'max_lifetime_days', message: 'is not a whole number' }] });
    }
    const saved = await api('PUT', '/api/v1/key-policy', {
      max_lifetime_days: lifetime ? Number(lifetime) : null,
      require_allowed_ips: $('key-policy-require-ips').checked,
    });
    show(saved);
    $('key-policy-saved').textContent = 'Key policy saved. New keys and changed keys follow it from now on.';
    $('key-policy-saved').hidden = false;
  });
  return {
    async load() {
      const mayChange = shell.may('manage_admin_keys');
      $('key-policy-lifetime').disabled = !mayChange;
      $('key-policy-require-ips').disabled = !mayChange;
      $('key-policy-actions').hidden = !mayChange;
      $('key-policy-readonly').hidden = mayChange;
      $('key-policy-saved').hidden = true;
      clearErrors(form);
      try {
        show(await api('GET', '/api/v1/key-policy'));
      } catch (error) {
        $('key-policy-state').textContent = '';
        showAlert(form.querySelector('[data-form-error]'), 'error', messageOf(error, 'The key policy could not be loaded.'));
      }
    },
  };
}
