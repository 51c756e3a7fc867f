import { fireEvent, screen, waitFor } from '@testing-library/react';
import {
  API_PATHS,
  messages,
  PRIVACY_ACK_STORAGE_KEY,
  PRIVACY_ACK_STORAGE_VALUE,
  PRIVACY_METHOD,
  PRIVACY_POLICY_URL,
  privacyNoticeHash,
} from '@wellrest/core';
import { describe, expect, it, vi } from 'vitest';
import { PRIVACY_CHECK_KEY } from '@/features/privacy/privacyCheck';
import { bodyOf, jsonResponse, mockApi } from '@/test/http';
import { renderWithApp } from '@/test/render';
import { PrivacyDialog } from './PrivacyDialog';

const contact = { email: 'privacy@clinic.example', phone: '555-0100' };
const needsIt = {
  hasAcknowledged: false,
  currentVersion: '2.1',
  acknowledgedVersion: null,
  needsAcknowledgment: true,
  contact,
};

function checkboxes() {
  return {
    read: screen.getByRole('checkbox', { name: messages.privacy.readCheckbox }),
    agree: screen.getByRole('checkbox', { name: messages.privacy.agreeCheckbox }),
    button: screen.getByRole('button', { name: messages.privacy.acknowledgeButton }) as HTMLButtonElement,
  };
}

describe('PrivacyDialog', () => {
  it('shows the notice with contact details and version from the check', async () => {
    mockApi({ [`GET ${API_PATHS.privacyCheck}`]: () => jsonResponse(needsIt) });
    renderWithApp(<PrivacyDialog />);
    const dialog = await screen.findByRole('dialog', { name: messages.privacy.title });
    expect(dialog.textContent).toContain(messages.privacy.prompt);
    expect(dialog.textContent).toContain(contact.email);
    expect(dialog.textContent).toContain(contact.phone);
    expect(dialog.textContent).toContain('Version 2.1');
    expect(dialog.querySelector(`a[href="${PRIVACY_POLICY_URL}"]`)).not.toBeNull();
  });

  it('cannot be dismissed with Escape', async () => {
    mockApi({ [`GET ${API_PATHS.privacyCheck}`]: () => jsonResponse(needsIt) });
    renderWithApp(<PrivacyDialog />);
    const dialog = await screen.findByRole('dialog', { name: messages.privacy.title });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.getByRole('dialog', { name: messages.privacy.title })).toBeTruthy();
  });

  it('enables the button only when both boxes are ticked, then records the acknowledgment', async () => {
    const onAcknowledged = vi.fn();
    const fetchMock = mockApi({
      [`GET ${API_PATHS.privacyCheck}`]: () => jsonResponse(needsIt),
      [`POST ${API_PATHS.privacyAcknowledge}`]: () => jsonResponse({ success: true }, { status: 201 }),
    });
    const { queryClient } = renderWithApp(<PrivacyDialog onAcknowledged={onAcknowledged} />);
    await screen.findByRole('dialog', { name: messages.privacy.title });
    const { read, agree, button } = checkboxes();
    expect(button.disabled).toBe(true);
    fireEvent.click(read);
    expect(button.disabled).toBe(true);
    fireEvent.click(agree);
    expect(button.disabled).toBe(false);
    fireEvent.click(button);

    expect(await screen.findByText(messages.privacy.acknowledged.title)).toBeTruthy();
    expect(screen.getByText(messages.privacy.acknowledged.description)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: messages.privacy.title })).toBeNull());
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(bodyOf(post?.[1])).toEqual({
      policyVersion: '2.1',
      method: PRIVACY_METHOD,
      policyUrl: PRIVACY_POLICY_URL,
      policyHash: privacyNoticeHash({ ...contact, version: '2.1' }),
    });
    expect(localStorage.getItem(PRIVACY_ACK_STORAGE_KEY)).toBe(PRIVACY_ACK_STORAGE_VALUE);
    expect(queryClient.getQueryData(PRIVACY_CHECK_KEY)).toMatchObject({
      hasAcknowledged: true,
      needsAcknowledgment: false,
    });
    expect(onAcknowledged).toHaveBeenCalledTimes(1);
  });

  it('keeps the dialog open and says so when recording fails', async () => {
    mockApi({
      [`GET ${API_PATHS.privacyCheck}`]: () => jsonResponse(needsIt),
      [`POST ${API_PATHS.privacyAcknowledge}`]: () => jsonResponse({ error: 'nope' }, { status: 500 }),
    });
    renderWithApp(<PrivacyDialog />);
    await screen.findByRole('dialog', { name: messages.privacy.title });
    const { read, agree, button } = checkboxes();
    fireEvent.click(read);
    fireEvent.click(agree);
    fireEvent.click(button);
    expect(await screen.findByText(messages.privacy.acknowledgeFailed.description)).toBeTruthy();
    expect(screen.getByRole('dialog', { name: messages.privacy.title })).toBeTruthy();
    expect(localStorage.getItem(PRIVACY_ACK_STORAGE_KEY)).toBeNull();
  });

  it('never shows when the local flag exists at load', async () => {
    localStorage.setItem(PRIVACY_ACK_STORAGE_KEY, PRIVACY_ACK_STORAGE_VALUE);
    const fetchMock = mockApi({ [`GET ${API_PATHS.privacyCheck}`]: () => jsonResponse(needsIt) });
    renderWithApp(<PrivacyDialog />);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('does not show when the check says no acknowledgment is needed', async () => {
    const fetchMock = mockApi({
      [`GET ${API_PATHS.privacyCheck}`]: () =>
        jsonResponse({
          ...needsIt,
          hasAcknowledged: true,
          acknowledgedVersion: '2.1',
          needsAcknowledgment: false,
        }),
    });
    renderWithApp(<PrivacyDialog />);
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
