import { describe, expect, it } from 'vitest';
import { messages } from './messages.js';

// Spot checks against the strings of spec §5 and §8, character for character.
describe('messages', () => {
  it('search', () => {
    expect(messages.search.minChars).toBe('Type at least 2 characters to search');
    expect(messages.search.noResults('ada')).toBe('No results found for "ada"');
    expect(messages.search.searching).toBe('Searching...');
    expect(messages.search.failed).toBe('Search failed');
    expect(messages.search.placeholder).toBe('Search patients, bookings, physicians...');
    expect(Object.values(messages.search.groups)).toEqual([
      'Patients',
      'Bookings',
      'Physicians',
      'Referrals',
    ]);
  });

  it('booking validation and toasts', () => {
    expect(messages.booking.startDateRequired).toBe('Please select a start date');
    expect(messages.booking.kitTypeRequired).toBe('Please select a kit type');
    expect(messages.booking.kitNotAvailable('SleepView')).toBe(
      'SleepView kits are not available for the selected date. Please choose a different kit type or date.',
    );
    expect(messages.booking.patientFieldsRequired).toBe('Please fill in all required patient fields');
    expect(messages.booking.patientRequired).toBe('Please select a patient');
    expect(messages.booking.kitTypeUnavailableTitle).toBe('Kit type unavailable');
    expect(messages.booking.kitTypeUnavailable('Somfit')).toBe(
      'Somfit is not available for the selected date. Please choose another kit type.',
    );
    expect(messages.booking.kitTypeUnavailableToast('Somfit')).toEqual({
      title: 'Kit type unavailable',
      description: 'Somfit is not available for the selected date. Please choose another kit type.',
    });
    expect(messages.booking.createFailed).toEqual({
      title: 'Error',
      description: 'Failed to create booking',
    });
    expect(messages.booking.created).toBe('Booking created successfully');
    expect(messages.booking.createdWithPatient).toBe('Patient and booking created successfully');
    expect(messages.booking.dialogTitle).toBe('Create New Booking');
    expect(messages.booking.createWithPatientButton).toBe('Create Patient & Booking');
  });

  it('privacy', () => {
    expect(messages.privacy.title).toBe('Privacy Policy & HIPAA Notice');
    expect(messages.privacy.prompt).toBe(
      'Please review our privacy policy and HIPAA compliance notice before continuing.',
    );
    expect(messages.privacy.readCheckbox).toBe('I have read and understood the privacy policy');
    expect(messages.privacy.agreeCheckbox).toBe(
      'I agree to the terms of the privacy policy and HIPAA notice',
    );
    expect(messages.privacy.acknowledgeButton).toBe('Acknowledge & Continue');
    expect(messages.privacy.acknowledging).toBe('Acknowledging...');
    expect(messages.privacy.checkFailed).toBe('Failed to check privacy acknowledgment');
    expect(messages.privacy.acknowledgeFailed).toEqual({
      title: 'Error',
      description: 'Failed to record privacy acknowledgment. Please try again.',
    });
    expect(messages.privacy.acknowledged).toEqual({
      title: 'Privacy Policy Acknowledged',
      description: 'Thank you for reviewing and accepting our privacy policy.',
    });
  });

  it('agreement, extension, reduction', () => {
    expect(messages.agreement.failed).toEqual({
      title: 'Agreement Initiation Failed',
      description: 'Failed to initiate agreement form. Please try again.',
    });
    expect(messages.agreement.initiated('Ada Example')).toEqual({
      title: 'Agreement Form Initiated',
      description: 'Agreement form opened for Ada Example. Patient can now sign the form.',
    });
    expect(messages.extension.failed).toEqual({
      title: 'Extension Failed',
      description: 'Failed to extend test. Please try again.',
    });
    expect(messages.extension.extended).toEqual({
      title: 'Test Extended Successfully',
      description: 'The 2-day test has been extended to a 3-day test.',
    });
    expect(messages.reduction.failed).toEqual({
      title: 'Reduction Failed',
      description: 'Failed to reduce test. Please try again.',
    });
    expect(messages.reduction.reduced).toEqual({
      title: 'Test Reduced Successfully',
      description: 'The 3-day test has been reduced to a 2-day test.',
    });
    expect(messages.extension.checkFailed).toEqual({
      title: 'Error',
      description: 'Failed to check extension eligibility',
    });
    expect(messages.reduction.checkFailed).toEqual({
      title: 'Error',
      description: 'Failed to check reduction eligibility',
    });
    expect(messages.extension.dialogTitle).toBe('Extend Test Duration');
    expect(messages.reduction.dialogTitle).toBe('Reduce Test Duration');
  });

  it('GHL sync and refresh', () => {
    expect(messages.ghl.synced('Imported 3 contacts')).toEqual({
      title: 'GHL Sync Successful',
      description: 'Imported 3 contacts',
    });
    expect(messages.ghl.failed).toEqual({
      title: 'Sync Failed',
      description: 'Failed to sync with GoHighLevel',
    });
    expect(messages.ghl.notConfigured).toBe('GoHighLevel is not configured');
    expect(messages.ghl.syncSummary(1, 2)).toBe('Imported 1 contact from GoHighLevel and pushed 2 patients.');
    expect(messages.refresh.refreshed).toEqual({
      title: 'Data Refreshed',
      description: 'All booking data has been updated successfully.',
    });
    expect(messages.refresh.failed).toEqual({
      title: 'Refresh Failed',
      description: 'Failed to refresh data. Please try again.',
    });
  });

  it('login', () => {
    expect(messages.login.usernameRequired).toBe('Username or email is required');
    expect(messages.login.passwordRequired).toBe('Password is required');
    expect(messages.login.passwordExpiredAlert).toBe(
      'Your password has expired. Please contact your administrator to reset it.',
    );
    expect(messages.login.twoFactorRequired).toEqual({
      title: '2FA Required',
      description: 'Please enter your 6-digit authentication code',
    });
    expect(messages.login.passwordExpired).toEqual({
      title: 'Password Expired',
      description: 'You must change your password to continue',
    });
    expect(messages.login.success).toEqual({ title: 'Welcome back!', description: 'Login successful' });
    expect(messages.login.failed).toBe('Login failed');
    expect(messages.login.trustDevice).toBe('Trust this device for 30 days');
    expect(messages.login.signingIn).toBe('Signing in...');
    expect(messages.login.backToLogin).toBe('Back to login');
    expect(messages.login.requestAccess).toBe('Request Access');
  });

  it('labels, empty states, dates and availability cards', () => {
    expect(messages.labels).toEqual({ unknownPatient: 'Unknown Patient', unknownKit: 'Unknown Kit' });
    expect(messages.emptyStates).toEqual({
      noAvailabilityData: 'No availability data',
      noPickups: 'No pickups',
      noReturns: 'No returns',
      noBookingsToday: 'No bookings scheduled for today',
    });
    expect(messages.dates.invalidDate).toBe('Invalid date');
    expect(messages.dates.noReturnDate).toBe('No return date');
    expect(messages.availability.morePickups(3)).toBe('+3 more pickups');
    expect(messages.availability.moreReturns(1)).toBe('+1 more returns');
  });

  it('server messages and the default query error', () => {
    expect(messages.common.invalidRequest).toBe('Invalid request');
    expect(messages.common.authenticationRequired).toBe('Authentication required');
    expect(messages.common.forbidden).toBe('You do not have permission to do that');
    expect(messages.common.notFound).toBe('Not found');
    expect(messages.common.statusError(500, 'Internal Server Error')).toBe('500: Internal Server Error');
    expect(messages.login.invalidCredentials).toBe('Invalid username or password');
    expect(messages.login.accountLocked).toContain('15 minutes');
  });

  it('names no patient data in any fixed string', () => {
    const fixed: string[] = [];
    const walk = (value: unknown): void => {
      if (typeof value === 'string') fixed.push(value);
      else if (value !== null && typeof value === 'object') Object.values(value).forEach(walk);
    };
    walk(messages);
    expect(fixed.length).toBeGreaterThan(100);
    for (const text of fixed) expect(text).not.toMatch(/@|\d{3}-\d{4}/);
  });
});
