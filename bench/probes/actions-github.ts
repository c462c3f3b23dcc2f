// @actions/github: what a feature that talks to GitHub's API adds when it loads.
import { getOctokit } from '@actions/github';

void getOctokit;
