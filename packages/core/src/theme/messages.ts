/** Strings of the console's shell: theme, page titles, breadcrumb, time zone, keyboard shortcuts. */
export const shellMessages = {
  theme: 'Theme',
  themeSystem: 'System',
  themeLight: 'Light',
  themeDark: 'Dark',
  /** The theme menu button's accessible name, naming the current choice. */
  themeButton: (current: string): string => `Theme: ${current}`,
  breadcrumb: 'Breadcrumb',
  /** document.title of a page: "Bookings · Wellrest". */
  documentTitle: (page: string): string => (page ? `${page} \u00b7 Wellrest` : 'Wellrest'),
  practiceZone: (zone: string): string => `Practice time: ${zone}`,
  shortcutsTitle: 'Keyboard shortcuts',
  shortcutsDescription: 'Press these keys anywhere in the console, except while typing in a field.',
  shortcutsButton: 'Keyboard shortcuts',
  shortcutSearch: 'Search',
  shortcutNewBooking: 'New booking',
  shortcutHelp: 'Show keyboard shortcuts',
  shortcutGoBookings: 'Go to bookings',
  shortcutGoPatients: 'Go to patients',
  shortcutGoCalendar: 'Go to calendar',
  shortcutGoDashboard: 'Go to the dashboard',
  shortcutCloseDialog: 'Close a dialog',
  print: 'Print',
} as const;
