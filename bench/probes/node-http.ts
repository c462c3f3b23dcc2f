// The least a client can load before its first request: node:http and node:https.
import http from 'node:http';
import https from 'node:https';

void http.request;
void https.request;
