// Line charts of the dashboard: Chart.js from its WebJar (its UMD build sets globalThis.Chart), without animation,
// the tooltip showing every series at the hovered point; a chart drawn again is updated in place.
import '/webjars/chart.js/4.4.7/dist/chart.umd.js';
import { el } from './ui.js';

/**
 * Draws `data` on `canvas` with the given axes (`scales`) and `tooltip` options; answers false (and puts a line
 * of text in the canvas's place) when Chart.js could not be loaded.
 */
export function drawLineChart(canvas, data, scales, tooltip = {}) {
  if (!window.Chart) {
    canvas.replaceWith(el('p', { class: 'muted' }, 'The chart could not be loaded.'));
    return false;
  }
  const existing = window.Chart.getChart(canvas);
  if (existing) {
    existing.data = data;
    existing.options.scales = scales;
    existing.options.plugins.tooltip = tooltip;
    existing.update('none');
    return true;
  }
  new window.Chart(canvas, {
    type: 'line',
    data,
    options: {
      animation: false,
      maintainAspectRatio: false,
      interaction: { mode: 'index', intersect: false },
      scales,
      plugins: { tooltip },
    },
  });
  return true;
}
