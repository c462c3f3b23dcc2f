// @actions/http-client alone: @actions/core imports it (for OIDC tokens) even when unused.
import { HttpClient } from '@actions/http-client';

void HttpClient;
