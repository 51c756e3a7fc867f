// Lists the events the Wellrest widgets send, as a partner page might react to them.
const log = document.getElementById('event-log');
for (const type of ['wellrest:ready', 'wellrest:submitted', 'wellrest:error']) {
  document.addEventListener(type, (event) => {
    const item = document.createElement('li');
    item.textContent = `${type} from <${event.target.localName}> ${JSON.stringify(event.detail)}`;
    log.append(item);
  });
}
