// A key's metadata edited as rows of name, type and value (string, number, true/false or null), as the API takes it:
// an object of at most 50 properties whose values are strings, numbers, booleans or null.
import { ApiError } from './api.js';
import { el } from './ui.js';

const MAX_PROPERTIES = 50;
const TYPES = [['string', 'text'], ['number', 'number'], ['boolean', 'true / false'], ['null', 'null']];

/**
 * Wires the rows inside `container` and its add button; answers `fill(metadata)`, which shows a key's metadata as
 * rows, and `read()`, which answers the metadata object or throws an ApiError naming the row at fault (field
 * `metadata`), so that nothing is sent.
 */
export function metadataRows(container, addButton) {
  const addState = () => { addButton.disabled = container.children.length >= MAX_PROPERTIES; };
  const row = (name, value) => {
    const type = value === null ? 'null' : typeof value === 'number' ? 'number' : typeof value === 'boolean' ? 'boolean' : 'string';
    const typeSelect = el('select', { 'aria-label': 'Type', 'data-meta-type': '' },
      TYPES.map(([id, words]) => el('option', { value: id }, words)));
    typeSelect.value = type;
    const valueInput = el('input', { type: 'text', 'aria-label': 'Value', 'data-meta-value': '', autocomplete: 'off',
      value: value === null || value === undefined ? '' : String(value) });
    const remove = el('button', { type: 'button', class: 'btn btn-secondary btn-small', 'data-meta-remove': '' }, 'Remove');
    const line = el('div', { class: 'limit-row metadata-row', 'data-metadata': '' },
      el('input', { type: 'text', 'aria-label': 'Name', 'data-meta-name': '', autocomplete: 'off', value: name, placeholder: 'plan' }),
      typeSelect, valueInput, remove);
    const typeState = () => {
      valueInput.disabled = typeSelect.value === 'null';
      valueInput.placeholder = typeSelect.value === 'boolean' ? 'true or false' : typeSelect.value === 'number' ? 'e.g. 42 or 2.5' : '';
    };
    typeSelect.addEventListener('change', typeState);
    typeState();
    remove.addEventListener('click', () => {
      const next = line.nextElementSibling || line.previousElementSibling;
      line.remove();
      addState();
      (next ? next.querySelector('[data-meta-name]') : addButton).focus();
    });
    return line;
  };
  addButton.addEventListener('click', () => {
    const line = row('', '');
    container.append(line);
    addState();
    line.querySelector('[data-meta-name]').focus();
  });
  return {
    fill(metadata) {
      container.replaceChildren(...Object.entries(metadata || {}).map(([name, value]) => row(name, value)));
      addState();
    },
    read() {
      const metadata = {};
      [...container.children].forEach((line, index) => {
        const name = line.querySelector('[data-meta-name]').value.trim();
        const type = line.querySelector('[data-meta-type]').value;
        const text = line.querySelector('[data-meta-value]').value.trim();
        const refuse = (why) => {
          throw new ApiError(400, { errors: [{ field: 'metadata', message: 'Row ' + (index + 1) + ': ' + why }] });
        };
        if (!name) refuse('give the property a name.');
        if (Object.prototype.hasOwnProperty.call(metadata, name)) refuse('the name “' + name + '” is used twice.');
        if (type === 'null') metadata[name] = null;
        else if (type === 'boolean') {
          if (text !== 'true' && text !== 'false') refuse('a true / false value must be true or false.');
          metadata[name] = text === 'true';
        } else if (type === 'number') {
          if (!/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text) || !Number.isFinite(Number(text))) {
            refuse('“' + text + '” is not a number (e.g. 42, -3 or 2.5).');
          }
          metadata[name] = Number(text);
        } else metadata[name] = text;
      });
      return metadata;
    },
  };
}
