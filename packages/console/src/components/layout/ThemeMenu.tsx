import { shellMessages as m, type ThemePreference } from '@wellrest/core';
import { Monitor, Moon, Sun } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { Button } from '@/components/ui/button';
import { useThemePreference } from '@/lib/theme';

const OPTIONS: readonly { value: ThemePreference; label: string; Icon: typeof Sun }[] = [
  { value: 'system', label: m.themeSystem, Icon: Monitor },
  { value: 'light', label: m.themeLight, Icon: Sun },
  { value: 'dark', label: m.themeDark, Icon: Moon },
];

/** The header's theme menu: follow the system (default), light or dark, remembered for this user. */
export function ThemeMenu({ userId }: { userId: number }) {
  const { preference, setPreference } = useThemePreference(userId);
  const current = OPTIONS.find((option) => option.value === preference) ?? OPTIONS[0];
  const Icon = current?.Icon ?? Monitor;
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger asChild>
        <Button variant="ghost" size="icon" aria-label={m.themeButton(current?.label ?? m.themeSystem)}>
          <Icon className="size-5" aria-hidden />
        </Button>
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-40 rounded-md border border-slate-200 bg-white p-1 text-sm text-slate-900 shadow-md"
        >
          <DropdownMenu.Label className="px-2 py-1.5 text-xs font-medium text-slate-600">
            {m.theme}
          </DropdownMenu.Label>
          <DropdownMenu.RadioGroup
            value={preference}
            onValueChange={(value) => setPreference(value as ThemePreference)}
          >
            {OPTIONS.map(({ value, label, Icon: OptionIcon }) => (
              <DropdownMenu.RadioItem
                key={value}
                value={value}
                className="flex min-h-9 cursor-default items-center gap-2 rounded-sm px-2 outline-none select-none data-[highlighted]:bg-slate-100 data-[state=checked]:font-semibold"
              >
                <OptionIcon className="size-4" aria-hidden />
                {label}
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
