import { ScannerSettings, stripScannerFraming } from '@wellrest/core';
import { Gauge, Keyboard, ScanLine } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { PageHeader } from '@/components/PageHeader';
import { QueryState } from '@/components/QueryState';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input, NativeSelect } from '@/components/ui/input';
import { FieldMessage, Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/api';
import { analyzeKeystrokes, type Keystroke, SCANNER_MAX_GAP_MS, type ScanCapture } from './keystrokes';
import { useSaveScannerSettings, useScannerSettings } from './queries';

/** A capture ends when no key has come for this long. */
const CAPTURE_IDLE_MS = 300;

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-lg font-semibold break-all text-slate-900">{value}</dd>
    </div>
  );
}

/** Records the keys of one scan and shows what the scanner sent, how fast, and what ends it. */
function ScannerTest({ settings }: { settings: ScannerSettings }) {
  const [keys, setKeys] = useState<Keystroke[]>([]);
  const [capture, setCapture] = useState<ScanCapture | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const recording = useRef<Keystroke[]>([]);

  useEffect(() => () => clearTimeout(timer.current), []);

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    // Enter and Tab are recorded, not acted on: the field must not lose focus mid-scan.
    if (event.key === 'Enter' || event.key === 'Tab') event.preventDefault();
    if (recording.current.length === 0) setCapture(null);
    // The time the key went down, not the time this handler ran: a busy page handles a scanner's
    // keys late and unevenly, but their times are the scanner's.
    recording.current = [...recording.current, { key: event.key, at: event.timeStamp }];
    setKeys(recording.current);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      setCapture(analyzeKeystrokes(recording.current));
      recording.current = [];
      setKeys([]);
    }, CAPTURE_IDLE_MS);
  }

  const shown = capture ?? (keys.length > 0 ? analyzeKeystrokes(keys) : null);
  const code = capture ? stripScannerFraming(capture.text, settings) : '';

  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ScanLine className="size-4" aria-hidden /> Test a scanner
        </CardTitle>
        <CardDescription>
          Click the field and scan any kit label. Nothing is sent to the server.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-1.5">
          <Label htmlFor="scanner-test">Scan here</Label>
          <Input
            id="scanner-test"
            className="h-12 font-mono text-lg"
            onKeyDown={onKeyDown}
            value={shown?.text ?? ''}
            onChange={() => undefined}
            autoComplete="off"
            spellCheck={false}
            placeholder="Waiting for a scan..."
          />
        </div>
        <div aria-live="polite" className="grid gap-4">
          {capture ? (
            <>
              <div>
                <h3 className="mb-1 text-sm font-medium text-slate-800">Keys received</h3>
                <ol className="flex flex-wrap gap-1" aria-label="Keys received">
                  {capture.tokens.map((token, index) => (
                    <li
                      // biome-ignore lint/suspicious/noArrayIndexKey: keys repeat; their order is their identity
                      key={index}
                      className={
                        token.visible
                          ? 'rounded border border-slate-300 bg-white px-1.5 py-0.5 font-mono text-sm'
                          : 'rounded border border-accent-600 bg-accent-50 px-1.5 py-0.5 font-mono text-xs font-semibold text-accent-800 uppercase'
                      }
                    >
                      {token.visible ? token.key : `[${token.key}]`}
                    </li>
                  ))}
                </ol>
              </div>
              <dl className="grid grid-cols-2 gap-2">
                <Stat label="Text" value={capture.text || '—'} />
                <Stat label="Suffix" value={capture.suffix ?? 'None'} />
                <Stat label="Total time" value={`${capture.totalMs} ms`} />
                <Stat label="Per key (average)" value={`${capture.averageGapMs} ms`} />
              </dl>
              <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="scanner-verdict">
                {capture.looksLikeScanner ? (
                  <Badge tone="green">
                    <Gauge className="size-3" aria-hidden /> Looks like a scanner
                  </Badge>
                ) : (
                  <Badge tone="amber">
                    <Keyboard className="size-3" aria-hidden /> Looks like typing
                  </Badge>
                )}
                <span className="text-slate-600">
                  Scanners send a key every few milliseconds (here: slowest gap {capture.maxGapMs} ms; people
                  rarely type faster than {SCANNER_MAX_GAP_MS} ms per key).
                </span>
              </div>
              <p className="text-sm text-slate-700">
                With the settings below, this scan reads as{' '}
                <span className="rounded bg-slate-100 px-1.5 py-0.5 font-mono font-semibold">
                  {code || '—'}
                </span>
                .{capture.suffix === null && ' No Enter or Tab came at the end: set “Ends with” to Nothing.'}
              </p>
            </>
          ) : (
            <p className="text-sm text-slate-600">
              {keys.length > 0 ? 'Receiving...' : 'The keys of the next scan will be shown here.'}
            </p>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

function SettingsForm({ settings }: { settings: ScannerSettings }) {
  const id = useId();
  const [form, setForm] = useState(settings);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useSaveScannerSettings();
  useEffect(() => setForm(settings), [settings]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = ScannerSettings.safeParse(form);
    if (!parsed.success) {
      setProblem(parsed.error.issues.map((issue) => issue.message).join(' '));
      return;
    }
    setProblem(null);
    try {
      await save.mutateAsync(parsed.data);
      toast({
        variant: 'success',
        title: 'Scanner settings saved',
        description: 'Scan fields use them from now on.',
      });
    } catch (error) {
      setProblem(errorMessage(error, 'The settings could not be saved.'));
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Prefix and suffix handling</CardTitle>
        <CardDescription>
          Characters your scanner adds before or after each code are removed before the code is looked up.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form className="grid gap-4" onSubmit={submit}>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-prefix`}>Prefix to remove</Label>
              <Input
                id={`${id}-prefix`}
                value={form.prefix}
                maxLength={20}
                onChange={(e) => setForm({ ...form, prefix: e.target.value })}
                className="font-mono"
              />
            </div>
            <div className="grid gap-1.5">
              <Label htmlFor={`${id}-suffix`}>Suffix to remove</Label>
              <Input
                id={`${id}-suffix`}
                value={form.suffix}
                maxLength={20}
                onChange={(e) => setForm({ ...form, suffix: e.target.value })}
                className="font-mono"
              />
            </div>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={`${id}-terminator`}>Each scan ends with</Label>
            <NativeSelect
              id={`${id}-terminator`}
              value={form.terminator}
              onChange={(e) =>
                setForm({ ...form, terminator: e.target.value as ScannerSettings['terminator'] })
              }
              aria-describedby={`${id}-terminator-hint`}
            >
              <option value="Enter">Enter (most scanners)</option>
              <option value="Tab">Tab</option>
              <option value="none">Nothing (a pause ends the scan)</option>
            </NativeSelect>
            <FieldMessage id={`${id}-terminator-hint`} tone="hint">
              The test above shows which key your scanner sends at the end.
            </FieldMessage>
          </div>
          <div className="flex items-center gap-2">
            <Checkbox
              id={`${id}-sound`}
              checked={form.sound}
              onCheckedChange={(checked) => setForm({ ...form, sound: checked === true })}
            />
            <Label htmlFor={`${id}-sound`}>Beep on each scan</Label>
          </div>
          {problem && (
            <p role="alert" className="text-sm text-red-700">
              {problem}
            </p>
          )}
          <div>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? 'Saving...' : 'Save settings'}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

export default function ScannerSetupPage() {
  const query = useScannerSettings();
  return (
    <>
      <PageHeader
        title="Scanner Setup"
        description="Test a barcode scanner and set how its codes are read at the check-out and check-in desks."
      />
      <QueryState query={query}>
        <div className="grid gap-6 xl:grid-cols-2">
          <ScannerTest settings={query.settings} />
          <SettingsForm settings={query.settings} />
        </div>
      </QueryState>
    </>
  );
}
