import { useEffect } from 'react';
import type { VoiceWidgetConfig } from '@domain/runtime-config';
import { VOICE_WIDGET_SIZE } from '@domain/voice-widget';
import { useConfig } from '@/lib/config';

const CONTAINER_ID = 'voice-widget';

/** Runs `fn` once the page has loaded and the browser is idle: the widget never delays the home page. */
function whenInteractive(fn: () => void): () => void {
  let cancelled = false;
  let idle: number | undefined;
  const run = () => {
    if (cancelled) return;
    // every browser the product supports has requestIdleCallback except Safari before 18.2
    const ric = (window as Partial<Window>).requestIdleCallback;
    idle = ric ? ric(() => !cancelled && fn(), { timeout: 3000 }) : window.setTimeout(() => !cancelled && fn(), 1000);
  };
  if (document.readyState === 'complete') run();
  else window.addEventListener('load', run, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', run);
    if (idle === undefined) return;
    const cic = (window as Partial<Window>).cancelIdleCallback;
    if (cic) cic(idle);
    else window.clearTimeout(idle);
  };
}

/** Injects the vendor's script once per page load, configured through data attributes. */
export function injectVoiceWidget(widget: VoiceWidgetConfig): void {
  if (document.querySelector(`script[data-voice-widget]`)) return;
  const script = document.createElement('script');
  script.src = widget.scriptUrl;
  script.async = true;
  script.dataset.voiceWidget = '';
  script.dataset.projectId = widget.projectId;
  script.dataset.color = widget.color;
  script.dataset.ballSize = String(widget.ballSize);
  script.dataset.container = CONTAINER_ID;
  document.body.appendChild(script);
}

/**
 * The home page's voice assistant (spec 000): only when the deploy configures one (locally
 * none: nothing is loaded), injected after the page is interactive, in a 238 x 423 px box.
 */
export function VoiceWidget() {
  const widget = useConfig().voiceWidget;
  useEffect(() => (widget ? whenInteractive(() => injectVoiceWidget(widget)) : undefined), [widget]);
  if (!widget) return null;
  return (
    <aside
      id={CONTAINER_ID}
      aria-label="Assistente vocale"
      className="pointer-events-none fixed right-4 bottom-4 z-40 max-w-[calc(100vw-2rem)] [&>*]:pointer-events-auto"
      style={{ width: VOICE_WIDGET_SIZE.width, height: VOICE_WIDGET_SIZE.height }}
      data-testid="voice-widget"
    />
  );
}
