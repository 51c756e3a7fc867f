import { Printer } from 'lucide-react';
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import type { InventoryKit } from './queries';

/** The Code 128 barcode of a kit label as SVG markup (bwip-js is loaded only when labels are shown). */
async function barcodeSvg(text: string): Promise<string> {
  const bwip = await import('bwip-js/browser');
  return bwip.toSVG({ bcid: 'code128', text, scale: 2, height: 10, includetext: false, paddingwidth: 4 });
}

function useBarcodes(labels: string[]) {
  const [svgs, setSvgs] = useState<Record<string, string>>({});
  const [failed, setFailed] = useState(false);
  const key = labels.join('\n');
  useEffect(() => {
    let cancelled = false;
    setFailed(false);
    Promise.all(key.split('\n').map(async (label) => [label, await barcodeSvg(label)] as const))
      .then((pairs) => !cancelled && setSvgs(Object.fromEntries(pairs)))
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
  }, [key]);
  return { svgs, failed };
}

function KitLabel({ kit, svg }: { kit: InventoryKit; svg: string | undefined }) {
  return (
    <figure
      className="kit-label flex w-full flex-col items-center gap-1 rounded-md border border-slate-300 bg-white p-3 text-center text-slate-900"
      aria-label={`Label of kit ${kit.kitId}`}
    >
      {svg ? (
        <img
          src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
          alt={`Barcode ${kit.kitId}`}
          className="h-16 w-full object-contain"
        />
      ) : (
        <div className="flex h-16 items-center">
          <Spinner />
        </div>
      )}
      <figcaption className="grid gap-0.5">
        <span className="font-mono text-base font-semibold tracking-wide">{kit.kitId}</span>
        <span className="text-xs text-slate-700">
          {kit.type}
          {kit.serialNumber ? ` · S/N ${kit.serialNumber}` : ''}
        </span>
      </figcaption>
    </figure>
  );
}

/** While labels are open, the printer gets only the labels: everything else is hidden in print. */
const PRINT_CSS = `
@media print {
  @page { margin: 10mm; }
  body > *:not(#kit-label-print) { display: none !important; }
  #kit-label-print { display: grid !important; grid-template-columns: repeat(3, 1fr); gap: 6mm; }
  #kit-label-print .kit-label { break-inside: avoid; border-color: #000; }
}
`;

/** A preview of the labels of one or more kits, with a Print button that prints only the labels. */
export function KitLabelsDialog({ kits, onClose }: { kits: InventoryKit[]; onClose: () => void }) {
  const open = kits.length > 0;
  const { svgs, failed } = useBarcodes(kits.map((kit) => kit.kitId));
  const ready = kits.every((kit) => svgs[kit.kitId]);
  const title = kits.length === 1 ? `Label for ${kits[0]?.kitId}` : `Labels for ${kits.length} kits`;

  return (
    <Dialog open={open} onOpenChange={(next) => !next && onClose()}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            Code 128 barcodes of the kit labels, ready for the label printer.
          </DialogDescription>
        </DialogHeader>
        {failed ? (
          <Alert variant="destructive">
            <AlertDescription>The barcodes could not be drawn. Try again.</AlertDescription>
          </Alert>
        ) : (
          <div className="grid max-h-[55vh] gap-3 overflow-y-auto sm:grid-cols-2">
            {kits.map((kit) => (
              <KitLabel key={kit.id} kit={kit} svg={svgs[kit.kitId]} />
            ))}
          </div>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
          <Button onClick={() => window.print()} disabled={!ready}>
            <Printer aria-hidden />
            Print {kits.length === 1 ? 'label' : `${kits.length} labels`}
          </Button>
        </DialogFooter>
      </DialogContent>
      {open &&
        createPortal(
          <div id="kit-label-print" className="hidden" aria-hidden>
            <style>{PRINT_CSS}</style>
            {kits.map((kit) => (
              <KitLabel key={kit.id} kit={kit} svg={svgs[kit.kitId]} />
            ))}
          </div>,
          document.body,
        )}
    </Dialog>
  );
}
